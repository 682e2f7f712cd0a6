# Refresh history (issue 9): a lease's recorded timeline and the "recorded, not live" bar.
target_sources(leasewatch_ui PRIVATE history/LeaseTimelineView.h history/LeaseTimelineView.cpp
               history/RecordedBar.h history/RecordedBar.cpp history/LeaseStripView.h history/LeaseStripView.cpp)
