/* Coverage glue for fuzz/build_gcc_libfuzzer.sh (g++-built targets, clang's libFuzzer).
   gcc instruments edges with -fsanitize-coverage=trace-pc, which libFuzzer >= 7 refuses;
   here each call hashes its return address into an 8-bit counter table registered with
   libFuzzer the way clang's inline-8bit-counters are (the script weakens libFuzzer's own
   __sanitizer_cov_trace_pc so this one is used). gcc's trace-cmp also emits float/double
   compare hooks that libFuzzer 14 does not define; they are no-ops here. */
#include <stdint.h>

void __sanitizer_cov_8bit_counters_init(uint8_t* start, uint8_t* stop);

static uint8_t counters[1 << 16];

__attribute__((constructor)) static void register_counters(void) {
  __sanitizer_cov_8bit_counters_init(counters, counters + sizeof counters);
}

void __sanitizer_cov_trace_pc(void) {
  uintptr_t pc = (uintptr_t)__builtin_return_address(0);
  counters[(pc ^ (pc >> 16)) & 0xffff]++;
}

void __sanitizer_cov_trace_cmpf(float a, float b) { (void)a; (void)b; }
void __sanitizer_cov_trace_cmpd(double a, double b) { (void)a; (void)b; }
