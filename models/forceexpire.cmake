target_sources(leasewatch_models PRIVATE ForceExpire.h ForceExpire.cpp AuditLog.h AuditLog.cpp)
