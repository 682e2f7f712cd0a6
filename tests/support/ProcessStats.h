#pragma once
// Resident memory of this process, for the benchmark and the soak run.
#include <cstdio>
#include <unistd.h>

namespace lw::test {

inline double residentMiB()
{
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        std::fclose(f);
    }
    return double(resident) * double(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

} // namespace lw::test
