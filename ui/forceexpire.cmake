target_sources(leasewatch_ui PRIVATE ForceExpireDialog.h ForceExpireDialog.cpp LeaseActions.h LeaseActions.cpp
               AuditView.h AuditView.cpp)
