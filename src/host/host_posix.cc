// The live POSIX machine behind the Host seam (Linux and WSL2).
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "host/host.h"
#include "host/terminal_size.h"

extern char** environ;

namespace tfgpu {
namespace {

// open(2) of a FIFO without a writer blocks until one comes: opened non-blocking, then
// refused by not_a_file. O_NONBLOCK means nothing to a regular file's reads, so only a
// character device (which may honour it) is made blocking again: two fcntl calls saved
// on each of the ~150 files a probe opens. `st` receives the file's fstat.
int open_not_blocking(const std::string& path, struct ::stat& st) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return fd;
  if (::fstat(fd, &st) != 0) {
    st = {};  // st_mode 0: not_a_file says "cannot stat it"
    return fd;
  }
  if (S_ISCHR(st.st_mode)) {
    int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  }
  return fd;
}

// Why a file with this fstat is not something to read as a file (a FIFO or socket never
// ends or never starts; a directory has no bytes); nullptr for regular files and
// character devices.
const char* not_a_file(const struct ::stat& st) {
  if (st.st_mode == 0) return "cannot stat it";
  if (S_ISDIR(st.st_mode)) return "it is a directory, not a file";
  if (S_ISFIFO(st.st_mode)) return "it is a FIFO (named pipe), not a regular file";
  if (S_ISSOCK(st.st_mode)) return "it is a socket, not a regular file";
  return nullptr;
}

FileInfo to_info(const struct stat& st) {
  FileInfo info;
  if (S_ISREG(st.st_mode)) {
    info.type = FileType::kRegular;
  } else if (S_ISDIR(st.st_mode)) {
    info.type = FileType::kDirectory;
  } else if (S_ISLNK(st.st_mode)) {
    info.type = FileType::kSymlink;
  }
  info.size = static_cast<uint64_t>(st.st_size);
  info.mode = st.st_mode & 07777;
  info.uid = st.st_uid;
  return info;
}

// One open descriptor read with pread: a header walk of a 500 MiB library touches a
// few KiB of it.
// Reads through a few 4 KiB blocks: the ELF parser asks for many small pieces (header,
// program headers, dynamic section, its strings, hash tables), mostly close together, and
// each pread is a system call. Reads larger than a block go straight to the file.
class FdRangeReader final : public RangeReader {
 public:
  FdRangeReader(int fd, std::string path, uint64_t size) : fd_(fd), path_(std::move(path)), size_(size) {}
  ~FdRangeReader() override { ::close(fd_); }
  FdRangeReader(const FdRangeReader&) = delete;
  FdRangeReader& operator=(const FdRangeReader&) = delete;
  uint64_t size() const override { return size_; }

  Result<std::string> read(uint64_t offset, uint64_t length) override {
    std::string data;
    if (offset >= size_) return data;
    length = std::min<uint64_t>(length, size_ - offset);
    if (length > kBlock) return pread_all(offset, length);
    data.reserve(static_cast<size_t>(length));
    while (length > 0) {
      uint64_t start = offset / kBlock * kBlock;
      auto block = block_at(start);
      if (!block) return fail(block.error());
      const std::string& b = **block;
      uint64_t in = offset - start;
      if (in >= b.size()) break;  // the file shrank since it was opened
      uint64_t take = std::min<uint64_t>(length, b.size() - in);
      data.append(b, static_cast<size_t>(in), static_cast<size_t>(take));
      offset += take;
      length -= take;
      if (b.size() < kBlock) break;
    }
    return data;
  }

 private:
  static constexpr uint64_t kBlock = 4096;
  static constexpr size_t kBlocks = 16;

  Result<const std::string*> block_at(uint64_t start) {
    for (auto& [at, bytes] : blocks_)
      if (at == start) return &bytes;
    auto bytes = pread_all(start, std::min<uint64_t>(kBlock, size_ - start));
    if (!bytes) return fail(bytes.error());
    if (blocks_.size() == kBlocks) blocks_.erase(blocks_.begin());
    blocks_.emplace_back(start, std::move(*bytes));
    return &blocks_.back().second;
  }

  Result<std::string> pread_all(uint64_t offset, uint64_t length) {
    std::string data;
    int error = 0;
    // resize_and_overwrite: no zero-filling of bytes pread overwrites anyway.
    data.resize_and_overwrite(static_cast<size_t>(length), [&](char* buf, size_t n) {
      size_t done = 0;
      while (done < n) {
        ssize_t got = ::pread(fd_, buf + done, n - done, static_cast<off_t>(offset + done));
        if (got < 0) {
          if (errno == EINTR) continue;
          error = errno;
          return size_t{0};
        }
        if (got == 0) break;  // the file shrank since it was opened
        done += static_cast<size_t>(got);
      }
      return done;
    });
    if (error) return fail(Error::io(fmt::format("cannot read {}: {}", path_, std::strerror(error))));
    return data;
  }

  int fd_;
  std::string path_;
  uint64_t size_;
  std::vector<std::pair<uint64_t, std::string>> blocks_;  // oldest first
};

class PosixHost final : public Host {
 public:
  Platform platform() const override { return Platform::kLinux; }

  OsRelease os_release() const override {
    struct utsname u {};
    OsRelease r;
    if (uname(&u) == 0) {
      r.kernel_name = u.sysname;
      r.kernel_release = u.release;
      r.machine = u.machine;
      r.node_name = u.nodename;
    }
#ifdef _CS_GNU_LIBC_VERSION
    // "glibc 2.36": the C library this process runs with, the system's (tfgpu links it
    // dynamically), so the one ld.so and TensorFlow use too. musl has no such name.
    char buf[64] = {};
    if (size_t n = confstr(_CS_GNU_LIBC_VERSION, buf, sizeof buf); n > 0 && n <= sizeof buf) {
      std::string_view v(buf);
      if (v.substr(0, 6) == "glibc ") r.libc_version = std::string(v.substr(6));
    }
#endif
    return r;
  }

  Result<void> write_file_atomic(const std::string& path, std::string_view contents) const override {
    // rename(2) within one file system replaces the target atomically; the temporary file
    // is made by mkstemp next to the target (same directory, so the same file system).
    size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    if (base.empty()) return fail(Error::input(fmt::format("cannot write {}: it names a directory", path)));
    std::string tmp = (dir == "/" ? "" : dir) + "/." + base + ".tmp.XXXXXX";
    int fd = mkstemp(tmp.data());
    if (fd < 0) return fail(Error::io(fmt::format("cannot write {}: {}", path, std::strerror(errno))));
    auto give_up = [&](int err) {
      ::close(fd);
      ::unlink(tmp.c_str());
      return fail(Error::io(fmt::format("cannot write {}: {}", path, std::strerror(err))));
    };
    // mkstemp creates 0600; a snapshot is as readable as any file the user writes.
    mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd, 0666 & ~mask) != 0) return give_up(errno);
    for (size_t done = 0; done < contents.size();) {
      ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return give_up(n < 0 ? errno : EIO);
      done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) return give_up(errno);
    if (::close(fd) != 0) {
      int err = errno;
      ::unlink(tmp.c_str());
      return fail(Error::io(fmt::format("cannot write {}: {}", path, std::strerror(err))));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      int err = errno;
      ::unlink(tmp.c_str());
      return fail(Error::io(fmt::format("cannot write {}: {}", path, std::strerror(err))));
    }
    return {};
  }

  std::optional<std::string> env(const std::string& name) const override {
    const char* v = std::getenv(name.c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  }

  std::map<std::string, std::string> environment() const override {
    std::map<std::string, std::string> out;
    for (char** e = environ; e && *e; ++e) {
      std::string_view kv(*e);
      size_t eq = kv.find('=');
      if (eq == std::string_view::npos) continue;
      out.emplace(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
    }
    return out;
  }

  Result<std::string> read_file(const std::string& path, uint64_t max_bytes) const override {
    struct ::stat st {};
    int fd = open_not_blocking(path, st);
    if (fd < 0) return fail(Error::io(fmt::format("cannot open {}: {}", path, std::strerror(errno))));
    if (auto why = not_a_file(st)) {
      ::close(fd);
      return fail(Error::io(fmt::format("cannot read {}: {}", path, why)));
    }
    std::string data;
    char buf[65536];
    while (true) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0) {
        if (errno == EINTR) continue;
        int err = errno;
        ::close(fd);
        return fail(Error::io(fmt::format("cannot read {}: {}", path, std::strerror(err))));
      }
      if (n == 0) break;
      if (data.size() + static_cast<size_t>(n) > max_bytes) {
        ::close(fd);
        return fail(Error::io(fmt::format("{} is larger than {} bytes", path, max_bytes)));
      }
      data.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return data;
  }

  Result<std::string> read_file_range(const std::string& path, uint64_t offset, uint64_t length) const override {
    auto r = open_ranges(path);
    if (!r) return fail(r.error());
    return (*r)->read(offset, length);
  }

  Result<std::unique_ptr<RangeReader>> open_ranges(const std::string& path) const override {
    struct ::stat st {};
    int fd = open_not_blocking(path, st);
    if (fd < 0) return fail(Error::io(fmt::format("cannot open {}: {}", path, std::strerror(errno))));
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      return fail(Error::io(fmt::format("cannot read {}: not a regular file", path)));
    }
    return std::unique_ptr<RangeReader>(std::make_unique<FdRangeReader>(fd, path, static_cast<uint64_t>(st.st_size)));
  }

  Result<std::vector<DirEntry>> list_dir(const std::string& path) const override {
    DIR* d = ::opendir(path.c_str());
    if (!d) return fail(Error::io(fmt::format("cannot list {}: {}", path, std::strerror(errno))));
    std::vector<DirEntry> out;
    while (struct dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      DirEntry entry{name, FileType::kOther};
      switch (e->d_type) {
        case DT_REG:
          entry.type = FileType::kRegular;
          break;
        case DT_DIR:
          entry.type = FileType::kDirectory;
          break;
        case DT_LNK:
          entry.type = FileType::kSymlink;
          break;
        case DT_UNKNOWN: {
          struct stat st {};
          if (::lstat((path + "/" + name).c_str(), &st) == 0) entry.type = to_info(st).type;
          break;
        }
        default:
          break;
      }
      out.push_back(std::move(entry));
    }
    ::closedir(d);
    return out;
  }

  std::optional<FileInfo> stat(const std::string& path) const override {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return to_info(st);
  }

  std::optional<FileInfo> lstat(const std::string& path) const override {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
    FileInfo info = to_info(st);
    if (info.type == FileType::kSymlink) {
      char buf[PATH_MAX];
      ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
      if (n >= 0) info.link_target.assign(buf, static_cast<size_t>(n));
    }
    return info;
  }

  Result<std::string> canonical(const std::string& path) const override {
    char* r = ::realpath(path.c_str(), nullptr);
    if (!r) return fail(Error::io(fmt::format("cannot resolve {}: {}", path, std::strerror(errno))));
    std::string out(r);
    std::free(r);
    return out;
  }

  std::string current_dir() const override {
    char buf[PATH_MAX];
    if (::getcwd(buf, sizeof buf)) return buf;
    return ".";
  }

  std::string self_exe() const override {
    auto r = canonical("/proc/self/exe");
    return r ? *r : std::string("tfgpu");
  }

  Result<ProcessResult> run(const ProcessSpec& spec) const override;
};


// Children of run() still waited for (a multiset: a pid reaped by one thread may come
// back as another thread's child before the first one has unregistered it).
std::mutex g_children_mutex;
std::multiset<pid_t> g_children;

// Orphans of a child's process tree come back to us instead of init (Linux >= 3.4):
// a vendor library that forks a setsid() grandchild can then still be found and killed.
// prctl(2): PR_SET_CHILD_SUBREAPER.
void become_subreaper() {
#ifdef __linux__
  static std::once_flag once;
  std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); });
#endif
}

// Our child processes that no run() waits for: orphans of a child's tree (reparented to
// us by PR_SET_CHILD_SUBREAPER). proc(5): /proc/PID/task/TID/children.
std::vector<pid_t> stray_children() {
  std::vector<pid_t> found;
  std::string dir = fmt::format("/proc/{}/task", ::getpid());
  DIR* d = ::opendir(dir.c_str());
  if (!d) return found;
  while (auto* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    int fd = ::open((dir + "/" + e->d_name + "/children").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
    ::close(fd);
    for (const char* p = text.c_str(); *p;) {
      char* next = nullptr;
      long v = std::strtol(p, &next, 10);
      if (next == p) break;
      if (v > 0) found.push_back(static_cast<pid_t>(v));
      p = next;
    }
  }
  ::closedir(d);
  std::lock_guard lock(g_children_mutex);
  std::erase_if(found, [](pid_t p) { return g_children.count(p) > 0; });
  return found;
}

// Kills and reaps the strays, and theirs, until none is left (bounded: a fork bomb is
// given 64 rounds).
void kill_strays() {
  for (int round = 0; round < 64; ++round) {
    auto strays = stray_children();
    if (strays.empty()) return;
    for (pid_t p : strays) {
      ::kill(p, SIGKILL);
    }
    for (pid_t p : strays) {
      // SIGKILL ends even a stopped process; waited for at most ~2 s each (D state).
      for (int i = 0; i < 200 && ::waitpid(p, nullptr, WNOHANG) == 0; ++i) ::usleep(10000);
    }
  }
}

Result<ProcessResult> PosixHost::run(const ProcessSpec& spec) const {
  if (spec.argv.empty()) return fail(Error::internal("run: empty argv"));
  become_subreaper();
  int out_pipe[2], err_pipe[2], in_pipe[2];
  // Close-on-exec from the start (pipe2): the probe runs children from two threads, and a
  // pipe end inherited by the other thread's child would hold our EOF until it exits.
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0 || ::pipe2(in_pipe, O_CLOEXEC) != 0) {
    return fail(Error::io(fmt::format("pipe: {}", std::strerror(errno))));
  }

  // Build argv/envp before fork: only async-signal-safe calls after it.
  std::vector<char*> argv;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::map<std::string, std::string> env = environment();
  for (const auto& [k, v] : spec.env_overrides) {
    if (v.empty()) {
      env.erase(k);
    } else {
      env[k] = v;
    }
  }
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  // posix_spawn, not fork: glibc starts the child with CLONE_VM|CLONE_VFORK, so the
  // parent's page tables are not copied (fork costs more than the child's own start in a
  // 3-thread probe), and an exec failure comes back here as an error number.
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // own process group: the deadline kills grandchildren too
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  int spawn_error;
  {
    // Registered under the lock that stray_children() reads under: another thread's
    // sweep never takes this child for an orphan.
    std::lock_guard lock(g_children_mutex);
    spawn_error = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
    if (spawn_error == 0) g_children.insert(pid);
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (spawn_error != 0) {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    if (spawn_error == EAGAIN || spawn_error == ENOMEM)
      return fail(Error::io(fmt::format("cannot start {}: {}", spec.argv[0], std::strerror(spawn_error))));
    // What a shell says for a program it cannot run: exit 127, the reason on stderr.
    ProcessResult result;
    result.exited = true;
    result.exit_code = 127;
    result.err = fmt::format("tfgpu: exec failed: {}: {}\n", spec.argv[0], std::strerror(spawn_error));
    return result;
  }
  ::setpgid(pid, pid);  // also from here: no window in which a kill(-pid) misses it
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (!spec.stdin_text.empty()) {
    // Small inputs only (the pipe buffer); the children we run read all of it first.
    [[maybe_unused]] auto w = ::write(in_pipe[1], spec.stdin_text.data(), spec.stdin_text.size());
  }
  ::close(in_pipe[1]);

  // The deadline holds whatever the child does: it may close its stdout/stderr and block,
  // stop itself, or leave a grandchild holding the pipes open. So the loop ends when the
  // child has exited (seen through a pidfd, or a 50 ms check) and its pipes are drained,
  // or at the deadline; never on EOF alone.
  ProcessResult result;
  auto deadline = std::chrono::steady_clock::now() + spec.timeout;
#ifdef SYS_pidfd_open
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  int pidfd = -1;
#endif
  struct pollfd fds[3] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {pidfd, POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  bool child_ended = false;
  auto check_ended = [&] {
    siginfo_t info{};
    // WNOWAIT: the child stays a zombie, so its pid (and process group id) cannot be
    // reused before the kill(-pid) below.
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
      child_ended = true;
  };
  for (;;) {
    if (!child_ended) check_ended();
    if (child_ended && open_fds == 0) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = !child_ended;
      break;
    }
    if (child_ended) fds[2].fd = -1;  // a pidfd stays readable once the child has ended
    int wait_ms = child_ended ? 0 : static_cast<int>(std::min<long long>(left.count(), fds[2].fd >= 0 ? 1000 : 50));
    int rc = ::poll(fds, 3, wait_ms);
    if (rc < 0 && errno != EINTR) {
      result.timed_out = !child_ended;  // cannot watch it any more: it is killed, never waited on blindly
      break;
    }
    // The child has ended and nothing is buffered: whoever still holds the pipes (a
    // grandchild) is not waited for.
    if (rc == 0 && child_ended) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      if (sinks[i]->size() < spec.max_output) {
        sinks[i]->append(buf, std::min(static_cast<size_t>(n), spec.max_output - sinks[i]->size()));
      }
    }
  }
  for (int i = 0; i < 2; ++i) {
    if (fds[i].fd >= 0) ::close(fds[i].fd);
  }
  if (pidfd >= 0) ::close(pidfd);
  // The whole tree goes after the child: its process group (also after a normal exit,
  // while the zombie keeps the group id ours), the child itself if it left the group, and
  // below the orphans that came back to us.
  ::kill(-pid, SIGKILL);
  if (result.timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  {
    std::lock_guard lock(g_children_mutex);
    if (auto it = g_children.find(pid); it != g_children.end()) g_children.erase(it);
  }
  kill_strays();
  if (!result.timed_out) {
    if (WIFEXITED(status)) {
      result.exited = true;
      result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      result.signal = WTERMSIG(status);
    }
  }
  return result;
}

}  // namespace

std::unique_ptr<Host> make_system_host() { return std::make_unique<PosixHost>(); }

std::vector<std::string> command_line_arguments(int argc, char** argv) {
  return std::vector<std::string>(argv + (argc > 0 ? 1 : 0), argv + argc);
}

bool stdout_is_terminal() { return ::isatty(1) != 0; }

std::optional<int> stdout_terminal_columns() {
  struct winsize ws {};
  if (::isatty(1) == 0 || ::ioctl(1, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return std::nullopt;
  return static_cast<int>(ws.ws_col);
}
bool stdin_is_terminal() { return ::isatty(0) != 0; }

}  // namespace tfgpu
