#pragma once

// SplitMix64: small, fast, and good enough to draw test data, parameters and traffic
// from. Each user seeds its own stream, so that its draws do not depend on the others'.

#include <cstdint>

namespace orrery::advise {

class Random {
 public:
  explicit Random(uint64_t state) : state_(state) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  uint64_t Below(uint64_t n) { return n <= 1 ? 0 : Next() % n; }

 private:
  uint64_t state_;
};

}  // namespace orrery::advise
