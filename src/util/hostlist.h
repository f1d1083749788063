#pragma once
// Slurm-style hostlist compression of node names: {"gpu017", ..., "gpu030", "login1"} ->
// "gpu[017-030],login1", the form `scontrol show hostlist` prints and sites paste into
// `sbatch --nodelist`.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace tfgpu {

// Names are split into a prefix and the number they end with; names with the same
// prefix share one bracket of ranges (zero padding kept, as Slurm does). Duplicates
// count once; groups come out sorted by prefix, as `scontrol show hostlistsorted`
// prints them. Names that do not end in digits stay as they are.
std::string compress_hostlist(const std::vector<std::string>& names);

// The same, built one name at a time in memory that grows with the number of ranges,
// not of names (a run of 10,000 consecutive nodes is one interval).
class HostlistBuilder {
 public:
  // Adds a name; false when it was already there.
  bool add(const std::string& name);
  size_t size() const { return size_; }
  std::string str() const;

 private:
  // prefix, written length of the number, zero-padded?
  using Key = std::tuple<std::string, size_t, bool>;
  std::map<Key, std::map<uint64_t, uint64_t>> ranges_;  // first -> last, disjoint, not adjacent
  std::set<std::string> plain_;                         // names without a number
  size_t size_ = 0;
};

}  // namespace tfgpu
