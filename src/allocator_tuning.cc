// How long mimalloc keeps freed memory before returning it to the system. Linked into
// the server only when it uses mimalloc (CMakeLists.txt).
//
// RocksDB frees a memtable's arena (16 MB) every time it flushes one, about once a
// second under steady creates, and allocates the next one right away. With mimalloc's
// defaults (25 ms for pages, 500 ms for segments) that memory went back to the system
// in between, and the next memtable faulted every page in again, zero-filled by the
// kernel: 0.6 page faults per create. Keeping freed memory for a second (five for
// whole segments) lets the next memtable reuse it: 0.14 faults per create
// (bench/README.md, "stop 37"). Memory freed for longer still goes back, as before,
// when mimalloc next allocates or frees. MIMALLOC_DECOMMIT_DELAY and
// MIMALLOC_SEGMENT_DECOMMIT_DELAY in the environment still win.

#include <mimalloc.h>

#include <cstdlib>

namespace {

// mimalloc reads its options when the process starts, before this runs, so a default
// set now would not take: set the option unless the environment chose it.
void SetUnlessInEnvironment(mi_option_t option, const char* variable, long value) {
  if (std::getenv(variable) == nullptr) mi_option_set(option, value);
}

struct AllocatorTuning {
  AllocatorTuning() {
    SetUnlessInEnvironment(mi_option_decommit_delay, "MIMALLOC_DECOMMIT_DELAY", 1000);
    SetUnlessInEnvironment(mi_option_segment_decommit_delay, "MIMALLOC_SEGMENT_DECOMMIT_DELAY",
                           5000);
  }
};

const AllocatorTuning tuning;

}  // namespace
