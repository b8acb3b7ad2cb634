/* data: splitmix64 hashing of (seed, index) into uniform doubles (see data.h). */
#include "data.h"

double vb_data_uniform(uint64_t seed, uint64_t i, double lo, double hi)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + i + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * (1.0 / 9007199254740992.0);
}
