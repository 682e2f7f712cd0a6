#pragma once
// Resident memory and CPU time of this process or another one, for the benchmarks and the soak run.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace lw::test {

// utime + stime of a process, in seconds (-1 if it cannot be read).
inline double cpuSecondsOf(long long pid)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(f, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14)
            utime = std::stoull(field);
        if (i == 15)
            stime = std::stoull(field);
    }
    return double(utime + stime) / double(::sysconf(_SC_CLK_TCK));
}

inline double residentMiBOf(long long pid)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/statm");
    long long size = 0, resident = 0;
    f >> size >> resident;
    return double(resident) * double(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

inline double residentMiB()
{
    return residentMiBOf(::getpid());
}

} // namespace lw::test
