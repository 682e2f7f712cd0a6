# The PgBouncer page (issue 6, point 7); its charts go through charts/ChartPanel.
target_sources(leasewatch_ui PRIVATE pgbouncer/PgBouncerView.h pgbouncer/PgBouncerView.cpp)
