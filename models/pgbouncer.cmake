# PgBouncer as an optional source (issue 6, point 7): the admin console's pools and servers, their
# join with the cluster's advisory locks, the pools model and history, and the worker-thread driver.
target_sources(leasewatch_models PRIVATE
  pgbouncer/PgBouncerSource.h pgbouncer/PgBouncerSource.cpp
  pgbouncer/PgBouncerPoolModel.h pgbouncer/PgBouncerPoolModel.cpp
  pgbouncer/PgBouncerMonitor.h pgbouncer/PgBouncerMonitor.cpp
)
