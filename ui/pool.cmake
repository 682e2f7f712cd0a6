# The pool-occupancy page (issue 6); its charts live under charts/ behind ChartPanel.
target_sources(leasewatch_ui PRIVATE PoolView.h PoolView.cpp)
