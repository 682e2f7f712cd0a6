#pragma once
// The programs the tests start, from the environment ctest gives every test (lw_add_test). Not
// compiled in: a path in a -D flag differs per clone, so ccache could not reuse these objects in
// a fresh clone (CI's), where everything else hits.
#include <QString>
#include <QtGlobal>

namespace lw::test {

inline QString program(const char* variable)
{
    const QString path = qEnvironmentVariable(variable);
    if (path.isEmpty())
        qFatal("%s is not set: run the tests through ctest", variable);
    return path;
}

inline QString leasewatchBin()
{
    return program("LEASEWATCH_BIN");
}

} // namespace lw::test
