# Pool occupancy history (issue 6): ring-buffered samples per client group and for the cluster.
target_sources(leasewatch_models PRIVATE PoolHistory.h PoolHistory.cpp PoolModel.h PoolModel.cpp)
