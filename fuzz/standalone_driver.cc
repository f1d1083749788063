// A main() for the fuzz targets when libFuzzer is not available (g++ builds; the
// clang 14 shipped with Debian 12 cannot compile libstdc++ 12's <expected>).
// Runs LLVMFuzzerTestOneInput on every file given (or directory of files), then on
// `-runs=N` random mutations of them, under ASan/UBSan. With no arguments it reads
// one input from stdin, which is how AFL++ (afl-g++-fast) drives it:
//   afl-fuzz -i fuzz/corpus/elf -o /tmp/afl-out -- ./elf_fuzz
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<uint8_t> read_all(std::istream& in) {
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void mutate(std::vector<uint8_t>& buf, std::mt19937_64& rng, size_t max_len,
            const std::vector<std::vector<uint8_t>>& corpus) {
  static const uint8_t kInteresting[] = {0x00, 0x01, 0x7f, 0x80, 0xff, '\n', '"', '\\', '[', '{', '.', '='};
  int edits = 1 + static_cast<int>(rng() % 8);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 7) {
      case 0:  // flip a bit
        if (!buf.empty()) buf[rng() % buf.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1:  // set an interesting byte
        if (!buf.empty()) buf[rng() % buf.size()] = kInteresting[rng() % sizeof kInteresting];
        break;
      case 2:  // insert bytes
        if (buf.size() < max_len) buf.insert(buf.begin() + (buf.empty() ? 0 : rng() % buf.size()), 1 + rng() % 8, static_cast<uint8_t>(rng()));
        break;
      case 3:  // erase a range
        if (!buf.empty()) {
          size_t at = rng() % buf.size();
          buf.erase(buf.begin() + at, buf.begin() + std::min(buf.size(), at + 1 + rng() % 16));
        }
        break;
      case 4:  // truncate
        if (!buf.empty()) buf.resize(rng() % buf.size());
        break;
      case 5:  // overwrite 4 bytes with a large or small integer (sizes, offsets, counts)
        if (buf.size() >= 4) {
          uint32_t v = (rng() % 2) ? 0xFFFFFFFFu - static_cast<uint32_t>(rng() % 16) : static_cast<uint32_t>(rng() % 64);
          std::memcpy(&buf[rng() % (buf.size() - 3)], &v, 4);
        }
        break;
      case 6:  // splice with another corpus entry
        if (!corpus.empty()) {
          const auto& other = corpus[rng() % corpus.size()];
          if (!other.empty() && buf.size() < max_len) {
            size_t from = rng() % other.size();
            size_t len = std::min<size_t>(other.size() - from, 1 + rng() % 64);
            buf.insert(buf.begin() + (buf.empty() ? 0 : rng() % buf.size()), other.begin() + from, other.begin() + from + len);
          }
        }
        break;
    }
  }
  if (buf.size() > max_len) buf.resize(max_len);
}

}  // namespace

int main(int argc, char** argv) {
  long runs = 0;
  unsigned long long seed = 1;
  size_t max_len = 1 << 20;
  std::vector<std::vector<uint8_t>> corpus;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("-runs=", 0) == 0) {
      runs = std::stol(a.substr(6));
    } else if (a.rfind("-seed=", 0) == 0) {
      seed = std::stoull(a.substr(6));
    } else if (a.rfind("-max_len=", 0) == 0) {
      max_len = std::stoul(a.substr(9));
    } else if (std::filesystem::is_directory(a)) {
      // Every regular file below it (a corpus may have sub-folders).
      for (const auto& e : std::filesystem::recursive_directory_iterator(a)) {
        if (!e.is_regular_file()) continue;
        std::ifstream f(e.path(), std::ios::binary);
        corpus.push_back(read_all(f));
      }
    } else {
      std::ifstream f(a, std::ios::binary);
      if (!f) {
        std::cerr << "fuzz driver: cannot read " << a << "\n";
        return 2;
      }
      corpus.push_back(read_all(f));
    }
  }
  if (argc == 1) {
    auto input = read_all(std::cin);
    LLVMFuzzerTestOneInput(input.data(), input.size());
    return 0;
  }
  for (const auto& input : corpus) LLVMFuzzerTestOneInput(input.data(), input.size());
  std::mt19937_64 rng(seed);
  for (long r = 0; r < runs; ++r) {
    std::vector<uint8_t> buf = corpus.empty() ? std::vector<uint8_t>() : corpus[rng() % corpus.size()];
    mutate(buf, rng, max_len, corpus);
    LLVMFuzzerTestOneInput(buf.data(), buf.size());
  }
  std::printf("fuzz driver: %zu corpus inputs and %ld mutations ran without a crash (seed %llu)\n", corpus.size(), runs, seed);
  return 0;
}
