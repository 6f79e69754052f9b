// The per-user state directory (device locks, the readiness record) and the checks that keep
// another local user from steering what we write there. The default place may be a shared
// /tmp, where anyone can create the directory before us or plant links in it: so we use a
// directory only when it is a real directory of ours that nobody else can write, hold it
// open, and open every file in it relative to that descriptor, never following a link
// (docs/reliability.md, "Local security").
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::io {

// What the location depends on, injectable for tests.
struct StateEnvironment {
  // getenv semantics: nullptr when unset. Empty values count as unset.
  std::function<const char*(const char* name)> variable;
  // The home directory of the passwd entry, for when HOME is unset.
  std::function<std::optional<std::string>()> passwd_home;
  uid_t uid = 0;  // in the name of the default directory
};

// The process's own environment, passwd entry and real uid.
StateEnvironment process_state_environment();

// $TMPDIR, else /tmp.
std::filesystem::path temp_directory(const StateEnvironment& environment);

// Where locks and caches live: $CLAWPERATOR_STATE_DIR, else $XDG_RUNTIME_DIR/clawperator,
// else $TMPDIR/clawperator-<uid>. Used only when it passes the checks below.
std::filesystem::path default_state_dir(const StateEnvironment& environment);

// The private place under the home for when the default one is not safe:
// $XDG_STATE_HOME/clawperator, else <home>/.local/state/clawperator, the home being $HOME or
// the passwd entry's. nullopt when no home is known.
std::optional<std::filesystem::path> home_state_dir(const StateEnvironment& environment);

// Why a directory is not used: `problem` is "is a symlink", "owner uid 65534", "mode 0777",
// "not a directory", or what a system call said ("cannot create: Permission denied").
struct DirectoryError {
  std::filesystem::path path;
  std::string problem;
};

// A verified directory, held open. Every file is opened relative to it.
class StateDirectory {
 public:
  // Whether the last component of the path may be a symlink: never for the default places
  // (we create them ourselves); for a directory the user named, only a link of ours.
  enum class Symlinks { Refuse, FollowOwn };

  // Creates `path` when missing (mode 0700, missing parents as usual), then checks with lstat,
  // open(O_DIRECTORY) and fstat of the opened directory that it is a directory owned by
  // `owner` that neither its group nor others may write.
  static Expected<StateDirectory, DirectoryError> open(const std::filesystem::path& path,
                                                       uid_t owner, Symlinks symlinks);

  StateDirectory(StateDirectory&& other) noexcept;
  StateDirectory& operator=(StateDirectory&& other) noexcept;
  StateDirectory(const StateDirectory&) = delete;
  StateDirectory& operator=(const StateDirectory&) = delete;
  ~StateDirectory();

  const std::filesystem::path& path() const { return path_; }
  uid_t owner() const { return owner_; }

  // openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600), then fstat: a
  // regular file owned by owner(). The descriptor (the caller closes it) and its status, or
  // what is wrong: the problem's path is `name`, its message "is a symlink", "not a regular
  // file", "owner uid N", strerror text. `name` is one path component: a '/' in it is refused.
  struct OpenedFile {
    int fd = -1;
    struct stat status {};
  };
  Expected<OpenedFile, Problem> open_file(std::string_view name, int flags) const;

  // A file at `name` holding `contents`, replacing whatever was there (a planted link is
  // replaced, not followed): written under a fresh temporary name with O_EXCL, then renamed
  // into place, so a reader sees the old file or the whole new one.
  bool replace_file(std::string_view name, std::string_view contents = {}) const;
  // An empty file at `name`, the same way.
  bool replace_with_empty_file(std::string_view name) const;
  // unlinkat: removes the name (a link itself, never what it points to). True when this call
  // removed it (of two racing callers, exactly one).
  bool remove(std::string_view name) const;
  // renameat within the directory: `to` becomes what `from` was (a file written under a
  // temporary name, put in place whole). nullopt, or the strerror text.
  Expected<void, Problem> rename(std::string_view from, std::string_view to) const;
  // A new file `name` holding `contents`: openat with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, so
  // neither a planted link nor a file that is there already is ever written through. What went
  // wrong, if anything: the problem's path is `name`, its message strerror text.
  Expected<void, Problem> create_file(std::string_view name, std::string_view contents) const;
  // What `name` is now (fstatat, a link itself, never what it points to); nullopt when nothing
  // is there, or `name` is no file name.
  std::optional<struct stat> status_of(std::string_view name) const;
  // The names of the entries that start with `prefix` and end with `suffix`, whatever they are:
  // the caller opens each as it needs.
  std::vector<std::string> names_with(std::string_view prefix, std::string_view suffix) const;
  // Removes the regular files of ours whose names start with `prefix` and end with `suffix` and
  // were last written more than `older_than` ago: what a killed run left behind, never a
  // running one's file. How many were removed.
  std::size_t remove_stale(std::string_view prefix, std::string_view suffix,
                           std::chrono::seconds older_than) const;

 private:
  StateDirectory(int fd, std::filesystem::path path, uid_t owner)
      : fd_(fd), path_(std::move(path)), owner_(owner) {}

  int fd_ = -1;
  std::filesystem::path path_;
  uid_t owner_ = 0;
};

// The directory this run uses: a verified one, none (no lock, no readiness cache), or a
// refusal when the directory the user named is unsafe.
struct StateSelection {
  std::shared_ptr<const StateDirectory> directory;  // null: none
  std::optional<DirectoryError> refused;            // set: stop with STATE_DIRECTORY_UNSAFE
  std::string warning;                              // for stderr, once; empty: none
};

// CLAWPERATOR_STATE_DIR as given (a symlink only if it is ours), or refused; else the default
// place, else the one under the home, else none. `owner` is the effective uid.
StateSelection select_state_directory(const StateEnvironment& environment, uid_t owner);

}  // namespace clawperator::io
