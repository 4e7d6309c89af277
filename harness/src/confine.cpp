#include "confine.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sched.h>

#ifdef ARENA_HAVE_SECCOMP
#include <seccomp.h>
#endif

namespace arena {

namespace fs = std::filesystem;

namespace {

// System folders a process needs to run: libraries, toolkits, configuration, device nodes,
// /proc and /sys (the GPU driver reads both).
const char* const kSystemFolders[] = {"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc",
                                      "/opt", "/proc", "/sys", "/dev", "/run", "/var/lib", "/nix", "/snap"};

std::string canonical_or_self(const std::string& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p : c.string();
}

bool is_within(const std::string& inner, const std::string& outer) {
  if (outer == "/") return true;
  return inner == outer || (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
                            inner[outer.size()] == '/');
}

// Adds `root` if it holds no protected path; otherwise each of its entries, recursively,
// leaving out the protected paths themselves.
void add_except(const std::string& root, const std::vector<std::string>& protect, std::vector<std::string>& out) {
  std::error_code ec;
  if (!fs::exists(root, ec)) return;
  bool holds = false;
  for (const auto& p : protect) {
    if (is_within(root, p)) return;  // the root itself is protected
    if (is_within(p, root)) holds = true;
  }
  if (!holds) {
    out.push_back(root);
    return;
  }
  for (const auto& e : fs::directory_iterator(root, fs::directory_options::skip_permission_denied, ec)) {
    if (e.is_symlink(ec)) continue;  // a link may lead back into a protected tree
    add_except(e.path().string(), protect, out);
  }
}

int landlock_abi() {
  long v = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return v < 0 ? -1 : static_cast<int>(v);
}

uint64_t fs_rights(int abi) {
  uint64_t all = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
                 LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                 LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                 LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
  if (abi >= 2) all |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
  if (abi >= 3) all |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
#ifdef LANDLOCK_ACCESS_FS_IOCTL_DEV
  if (abi >= 5) all |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
#endif
  (void)abi;
  return all;
}

constexpr uint64_t kFileOnly = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
                               | LANDLOCK_ACCESS_FS_TRUNCATE
#endif
#ifdef LANDLOCK_ACCESS_FS_IOCTL_DEV
                               | LANDLOCK_ACCESS_FS_IOCTL_DEV
#endif
    ;

bool add_rule(int ruleset, const std::string& path, uint64_t access) {
  int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) access &= kFileOnly;
  landlock_path_beneath_attr attr{};
  attr.allowed_access = access;
  attr.parent_fd = fd;
  long r = ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &attr, 0);
  ::close(fd);
  return r == 0;
}

std::vector<std::string>& extra_reads() {
  static std::vector<std::string> paths;
  return paths;
}

std::string apply_landlock(const ConfinementPlan& plan) {
  const int abi = landlock_abi();
  if (abi < 1) return std::string("not available (") + (errno == EOPNOTSUPP ? "disabled in this kernel" : std::strerror(errno)) + ")";
  const uint64_t handled = fs_rights(abi);
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = handled;
#ifdef LANDLOCK_ACCESS_NET_CONNECT_TCP
  size_t attr_size = sizeof attr;
  if (abi >= 4) attr.handled_access_net = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
#endif
#ifdef LANDLOCK_SCOPE_SIGNAL
  if (abi >= 6) attr.scoped = LANDLOCK_SCOPE_SIGNAL | LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
#endif
#ifndef LANDLOCK_ACCESS_NET_CONNECT_TCP
  size_t attr_size = sizeof attr;
#endif
  int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0));
  if (ruleset < 0) return std::string("not applied (creating the ruleset failed: ") + std::strerror(errno) + ")";
  const uint64_t read = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_EXECUTE;
  for (const auto& folder : readable_system_folders(plan.protect)) add_rule(ruleset, folder, read);
  // Explicit grants (the kernel's own file) hold even inside a protected folder.
  for (const auto& p : plan.read) add_rule(ruleset, canonical_or_self(p), read);
  for (const auto& p : extra_reads()) add_rule(ruleset, canonical_or_self(p), read);
  // Device nodes are opened read-write and driven by ioctl; private folders are the only
  // writable places.
  add_rule(ruleset, "/dev", handled & ~(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                                        LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                                        LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_SYM));
  for (const auto& p : plan.write) add_rule(ruleset, canonical_or_self(p), handled);
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    ::close(ruleset);
    return std::string("not applied (no_new_privs: ") + std::strerror(errno) + ")";
  }
  long r = ::syscall(SYS_landlock_restrict_self, ruleset, 0);
  const int err = errno;
  ::close(ruleset);
  if (r != 0) return std::string("not applied (") + std::strerror(err) + ")";
  return "enforced (ABI " + std::to_string(abi) + ")";
}

std::string apply_seccomp(const ConfinementPlan& plan) {
#ifdef ARENA_HAVE_SECCOMP
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return "not applied (seccomp_init failed)";
  const int deny = SCMP_ACT_ERRNO(EPERM);
  // Other processes (the judge, the other side's worker), the kernel's administration, and
  // ways out of this process's own group.
  const int denied[] = {SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(kcmp),
                        SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_getfd), SCMP_SYS(mount), SCMP_SYS(umount2),
                        SCMP_SYS(pivot_root), SCMP_SYS(chroot), SCMP_SYS(unshare), SCMP_SYS(setns), SCMP_SYS(bpf),
                        SCMP_SYS(perf_event_open), SCMP_SYS(personality), SCMP_SYS(kexec_load),
                        SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module), SCMP_SYS(reboot),
                        SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(syslog), SCMP_SYS(acct), SCMP_SYS(iopl),
                        SCMP_SYS(ioperm), SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key),
                        SCMP_SYS(open_by_handle_at), SCMP_SYS(name_to_handle_at), SCMP_SYS(setsid),
                        SCMP_SYS(setpgid), SCMP_SYS(userfaultfd)};
  int rc = 0;
  for (int sc : denied) rc |= seccomp_rule_add(ctx, deny, sc, 0);
  // No network: only local (UNIX) sockets.
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX));
  if (!plan.children) {
    // Threads only: no new processes and no other programs.
    rc |= seccomp_rule_add(ctx, deny, SCMP_SYS(execve), 0);
    rc |= seccomp_rule_add(ctx, deny, SCMP_SYS(execveat), 0);
    rc |= seccomp_rule_add(ctx, deny, SCMP_SYS(fork), 0);
    rc |= seccomp_rule_add(ctx, deny, SCMP_SYS(vfork), 0);
    rc |= seccomp_rule_add(ctx, deny, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    // clone3 passes its flags in memory, which a filter cannot read: refused as unknown, so
    // the C library falls back to clone.
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  }
  if (rc != 0) {
    seccomp_release(ctx);
    return "not applied (a rule was refused)";
  }
  rc = seccomp_load(ctx);
  seccomp_release(ctx);
  if (rc != 0) return std::string("not applied (") + std::strerror(-rc) + ")";
  return plan.children ? "enforced (programs may be started)" : "enforced";
#else
  (void)plan;
  return "not available (built without libseccomp)";
#endif
}

}  // namespace

void add_confinement_read_path(const std::string& path) { extra_reads().push_back(path); }

std::vector<std::string> readable_system_folders(const std::vector<std::string>& protect) {
  std::vector<std::string> canon;
  for (const auto& p : protect) canon.push_back(canonical_or_self(p));
  std::vector<std::string> out;
  for (const char* root : kSystemFolders) add_except(canonical_or_self(root), canon, out);
  std::sort(out.begin(), out.end());  // /lib and /usr/lib are often one folder
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

ConfinementReport confine_self(const ConfinementPlan& plan) {
  ConfinementReport r;
  r.landlock = apply_landlock(plan);
  r.seccomp = apply_seccomp(plan);
  return r;
}

}  // namespace arena
