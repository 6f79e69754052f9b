#include "clawperator/io/state_directory.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "clawperator/io/account_home.hpp"
#include "clawperator/io/atomic_file.hpp"

namespace clawperator::io {
namespace {

// Unset and empty are the same here: an empty directory name names nothing.
const char* value_of(const StateEnvironment& environment, const char* name) {
  const char* value = environment.variable ? environment.variable(name) : nullptr;
  return value != nullptr && *value != '\0' ? value : nullptr;
}

std::string with_errno(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

std::string owner_problem(uid_t uid) {
  return "owner uid " + std::to_string(static_cast<unsigned long long>(uid));
}

// What makes an opened directory unfit for our files, if anything (no path: the directory's
// is the DirectoryError's).
Expected<void, Problem> check_directory(const struct stat& status, uid_t owner) {
  if (!S_ISDIR(status.st_mode)) return Unexpected(Problem{"", "not a directory"});
  if (status.st_uid != owner) return Unexpected(Problem{"", owner_problem(status.st_uid)});
  if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    char mode[16];
    std::snprintf(mode, sizeof mode, "mode %04o", static_cast<unsigned>(status.st_mode & 07777));
    return Unexpected(Problem{"", mode});
  }
  return {};
}

// One path component: a name inside the directory, never a way out of it.
bool is_file_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\0", 2)) == std::string_view::npos;
}

std::string describe(const DirectoryError& problem) {
  return problem.path.string() + ": " + problem.problem;
}

}  // namespace

StateEnvironment process_state_environment() {
  StateEnvironment environment;
  environment.variable = [](const char* name) { return std::getenv(name); };
  environment.passwd_home = [] { return passwd_home_directory(::geteuid()); };
  environment.uid = ::getuid();
  return environment;
}

std::filesystem::path temp_directory(const StateEnvironment& environment) {
  const char* dir = value_of(environment, "TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

std::filesystem::path default_state_dir(const StateEnvironment& environment) {
  if (const char* dir = value_of(environment, "CLAWPERATOR_STATE_DIR")) return dir;
  if (const char* runtime = value_of(environment, "XDG_RUNTIME_DIR")) {
    return std::filesystem::path(runtime) / "clawperator";
  }
  return temp_directory(environment) /
         ("clawperator-" + std::to_string(static_cast<unsigned long long>(environment.uid)));
}

std::optional<std::filesystem::path> home_state_dir(const StateEnvironment& environment) {
  // The XDG base directory spec: a relative XDG_STATE_HOME is invalid and ignored.
  if (const char* state = value_of(environment, "XDG_STATE_HOME");
      state != nullptr && *state == '/') {
    return std::filesystem::path(state) / "clawperator";
  }
  std::optional<std::string> home;
  if (const char* variable = value_of(environment, "HOME")) {
    home = variable;
  } else if (environment.passwd_home) {
    home = environment.passwd_home();
  }
  if (!home) return std::nullopt;
  return std::filesystem::path(*home) / ".local" / "state" / "clawperator";
}

Expected<StateDirectory, DirectoryError> StateDirectory::open(const std::filesystem::path& path,
                                                              uid_t owner, Symlinks symlinks) {
  auto refuse = [&](std::string problem) {
    return Unexpected<DirectoryError>{DirectoryError{path, std::move(problem)}};
  };
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) return refuse(with_errno("cannot inspect"));
    if (path.has_parent_path()) {
      std::error_code ignored;  // mkdir below says what is wrong
      std::filesystem::create_directories(path.parent_path(), ignored);
    }
    // 0700 from the first moment: there is no window in which another user could enter.
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
      return refuse(with_errno("cannot create"));
    }
    if (::lstat(path.c_str(), &link) != 0) return refuse(with_errno("cannot inspect"));
  }
  int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  if (S_ISLNK(link.st_mode)) {
    if (symlinks == Symlinks::Refuse) return refuse("is a symlink");
    if (link.st_uid != owner) return refuse("is a symlink, " + owner_problem(link.st_uid));
  } else if (!S_ISDIR(link.st_mode)) {
    return refuse("not a directory");
  } else {
    flags |= O_NOFOLLOW;  // it was a directory: a link swapped in since is refused
  }
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    if (errno == ELOOP) return refuse("is a symlink");
    if (errno == ENOTDIR) return refuse("not a directory");
    return refuse(with_errno("cannot open"));
  }
  StateDirectory directory(fd, path, owner);
  // What counts is what we hold open, whatever the name points to by now.
  struct stat status {};
  if (::fstat(fd, &status) != 0) return refuse(with_errno("cannot inspect"));
  if (auto checked = check_directory(status, owner); !checked) {
    return refuse(std::move(checked.error().message));
  }
  return directory;
}

StateDirectory::StateDirectory(StateDirectory&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)), owner_(other.owner_) {
  other.fd_ = -1;
}

StateDirectory& StateDirectory::operator=(StateDirectory&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
    path_ = std::move(other.path_);
    owner_ = other.owner_;
  }
  return *this;
}

StateDirectory::~StateDirectory() {
  if (fd_ >= 0) ::close(fd_);
}

Expected<StateDirectory::OpenedFile, Problem> StateDirectory::open_file(std::string_view name,
                                                                        int flags) const {
  const std::string file(name);
  const auto failure = [&](std::string message) {
    return Unexpected(Problem{file, std::move(message)});
  };
  if (!is_file_name(name)) return failure("not a file name");
  OpenedFile opened;
  // O_NONBLOCK: a FIFO planted under the name must not hang the open.
  opened.fd = ::openat(fd_, file.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
  if (opened.fd < 0) return failure(errno == ELOOP ? "is a symlink" : std::strerror(errno));
  std::string problem;
  if (::fstat(opened.fd, &opened.status) != 0) {
    problem = std::strerror(errno);
  } else if (!S_ISREG(opened.status.st_mode)) {
    problem = "not a regular file";
  } else if (opened.status.st_uid != owner_) {
    problem = owner_problem(opened.status.st_uid);
  }
  if (problem.empty()) return opened;
  ::close(opened.fd);
  return failure(std::move(problem));
}

bool StateDirectory::replace_with_empty_file(std::string_view name) const {
  return replace_file(name, {});
}

bool StateDirectory::replace_file(std::string_view name, std::string_view contents) const {
  if (!is_file_name(name)) return false;
  static std::atomic<unsigned> counter{0};
  const std::string file(name);
  for (int attempt = 0; attempt < 8; ++attempt) {
    const std::string temp = "." + file + ".tmp-" + std::to_string(::getpid()) + "-" +
                             std::to_string(counter.fetch_add(1));
    const int fd =
        ::openat(fd_, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
      if (errno == EEXIST) continue;  // a leftover of a crashed run with our pid
      return false;
    }
    bool written = true;
    for (std::string_view rest = contents; written && !rest.empty();) {
      const ssize_t n = ::write(fd, rest.data(), rest.size());
      if (n < 0 && errno == EINTR) continue;
      written = n > 0;
      if (written) rest.remove_prefix(static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (written && ::renameat(fd_, temp.c_str(), fd_, file.c_str()) == 0) return true;
    ::unlinkat(fd_, temp.c_str(), 0);
    return false;
  }
  return false;
}

bool StateDirectory::remove(std::string_view name) const {
  if (!is_file_name(name)) return false;
  return ::unlinkat(fd_, std::string(name).c_str(), 0) == 0;
}

Expected<void, Problem> StateDirectory::rename(std::string_view from, std::string_view to) const {
  if (!is_file_name(from) || !is_file_name(to)) {
    return Unexpected(Problem{std::string(is_file_name(from) ? to : from), "not a file name"});
  }
  if (::renameat(fd_, std::string(from).c_str(), fd_, std::string(to).c_str()) != 0) {
    return Unexpected(Problem{std::string(to), std::strerror(errno)});
  }
  return {};
}

Expected<void, Problem> StateDirectory::create_file(std::string_view name,
                                                    std::string_view contents) const {
  const std::string file(name);
  if (!is_file_name(name)) return Unexpected(Problem{file, "not a file name"});
  const int fd =
      ::openat(fd_, file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Unexpected(Problem{file, std::strerror(errno)});
  const int error = write_all(fd, contents);
  ::close(fd);
  if (error == 0) return {};
  ::unlinkat(fd_, file.c_str(), 0);
  return Unexpected(Problem{file, std::strerror(error)});
}

std::optional<struct stat> StateDirectory::status_of(std::string_view name) const {
  if (!is_file_name(name)) return std::nullopt;
  struct stat status {};
  if (::fstatat(fd_, std::string(name).c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0) {
    return std::nullopt;
  }
  return status;
}

std::vector<std::string> StateDirectory::names_with(std::string_view prefix,
                                                    std::string_view suffix) const {
  std::vector<std::string> names;
  const int listing = ::dup(fd_);
  if (listing < 0) return names;
  DIR* directory = ::fdopendir(listing);
  if (directory == nullptr) {
    ::close(listing);
    return names;
  }
  // The directory's own descriptor was read before (a lock's, a cache's): list from its start.
  ::rewinddir(directory);
  while (const dirent* entry = ::readdir(directory)) {
    const std::string_view name = entry->d_name;
    if (name.size() >= prefix.size() + suffix.size() && name.substr(0, prefix.size()) == prefix &&
        name.substr(name.size() - suffix.size()) == suffix) {
      names.emplace_back(name);
    }
  }
  ::closedir(directory);  // closes `listing`
  return names;
}

std::size_t StateDirectory::remove_stale(std::string_view prefix, std::string_view suffix,
                                         std::chrono::seconds older_than) const {
  const auto now = std::chrono::system_clock::now();
  std::vector<std::string> stale;
  for (std::string& name : names_with(prefix, suffix)) {
    const std::optional<struct stat> status = status_of(name);
    if (!status || !S_ISREG(status->st_mode) || status->st_uid != owner_) continue;
    const auto written =
        std::chrono::system_clock::time_point(std::chrono::seconds(status->st_mtim.tv_sec));
    if (now - written > older_than) stale.push_back(std::move(name));
  }
  for (const std::string& name : stale) ::unlinkat(fd_, name.c_str(), 0);
  return stale.size();
}

StateSelection select_state_directory(const StateEnvironment& environment, uid_t owner) {
  StateSelection selection;
  const std::filesystem::path preferred = default_state_dir(environment);
  const bool named = value_of(environment, "CLAWPERATOR_STATE_DIR") != nullptr;
  auto take = [&](StateDirectory& directory) {
    selection.directory = std::make_shared<const StateDirectory>(std::move(directory));
  };
  auto opened = StateDirectory::open(
      preferred, owner,
      named ? StateDirectory::Symlinks::FollowOwn : StateDirectory::Symlinks::Refuse);
  if (opened) {
    take(*opened);
    return selection;
  }
  const DirectoryError& problem = opened.error();
  // The user's own choice is never silently replaced by another place.
  if (named) {
    selection.refused = problem;
    return selection;
  }
  std::string why = describe(problem);
  if (const auto home = home_state_dir(environment); home && *home != preferred) {
    auto fallback = StateDirectory::open(*home, owner, StateDirectory::Symlinks::Refuse);
    if (fallback) {
      take(*fallback);
      selection.warning = "not using the state directory " + why + "; using " + home->string();
      return selection;
    }
    why += "; " + describe(fallback.error());
  }
  selection.warning = "no private state directory (" + why +
                      "); running without the device lock and the readiness cache";
  return selection;
}

}  // namespace clawperator::io
