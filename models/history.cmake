# Refresh history (issue 9): the local SQLite store per profile, its reader and replay, incident
# bundles, and the lease timeline model.
target_sources(leasewatch_models PRIVATE
  history/HistoryFormat.h history/HistoryFormat.cpp
  history/HistoryWriter.h history/HistoryWriter.cpp
  history/HistoryReader.h history/HistoryReader.cpp
  history/LeaseTimelineModel.h history/LeaseTimelineModel.cpp
  history/LeaseStrip.h history/LeaseStrip.cpp
)
