#include "clawperator/skills/skills_repository.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "clawperator/io/account_home.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/skills/registry.hpp"

namespace clawperator::skills {
namespace {

namespace fs = std::filesystem;
using contract::HostError;
using process::Completion;

std::optional<std::string> non_blank_environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  const std::string_view text(value);
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return std::nullopt;
  return std::string(text);
}

// git's stderr, at most this much in an error object: its message is at the start and the end.
constexpr std::size_t kGitStderrInError = 16384;

std::string clipped_git_text(const std::string& text) {
  if (text.size() <= kGitStderrInError) return text;
  return text.substr(0, kGitStderrInError / 2) + "\n[…]\n" +
         text.substr(text.size() - kGitStderrInError / 2);
}

// The line of git's stderr that says what went wrong: its first "fatal:" or "error:" line (a
// clone that fails offline writes "Cloning into '…'..." before it, issue 49), else its last line.
std::string git_error_line(const std::string& text) {
  std::string last;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string line = text.substr(at, end - at);
    at = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    line.erase(0, start);
    if (line.rfind("fatal:", 0) == 0 || line.rfind("error:", 0) == 0) return line;
    last = std::move(line);
  }
  return last;
}

class GitSession {
 public:
  GitSession(const SyncRequest& request, process::Runner& runner)
      : request_(request), runner_(runner) {}

  Completion run(std::vector<std::string> arguments,
                 std::chrono::milliseconds timeout = kGitTimeout) {
    process::CommandSpec spec;
    spec.argv = {request_.git};
    spec.argv.insert(spec.argv.end(), arguments.begin(), arguments.end());
    spec.timeout = timeout;
    spec.max_output_bytes = kMaxGitOutputBytes;
    last_argv_ = spec.argv;
    return runner_.run(spec);
  }

  // The failure of the last call, in git's own words.
  HostError failure(const Completion& done) const {
    if (done.status == Completion::Status::Cancelled) {
      return contract::interrupted_error("Interrupted while syncing the skills repository",
                                         process::interrupted_signal());
    }
    Json details = Json::object();
    details["argv"] = last_argv_;
    details["exitCode"] = done.exit_code;
    details["stderr"] = clipped_git_text(done.err);
    details["stdout"] = clipped_git_text(done.out);
    details["directory"] = request_.directory.string();
    details["ref"] = request_.ref;
    std::string why;
    switch (done.status) {
      case Completion::Status::TimedOut:
        details["timedOut"] = true;
        why = "timed out";
        break;
      case Completion::Status::SpawnFailed:
        details["errno"] = done.spawn_errno;
        why = std::string("could not run: ") + std::strerror(done.spawn_errno);
        break;
      case Completion::Status::Signaled:
        why = "was killed by signal " + std::to_string(done.signal);
        break;
      default:
        why = "exited with code " + std::to_string(done.exit_code);
        break;
    }
    std::string message = "Skills sync failed: git " + last_argv_.at(1) + " " + why;
    if (const std::string line = git_error_line(done.err); !line.empty()) message += ": " + line;
    return contract::readiness_error("SKILLS_SYNC_FAILED", std::move(message), std::move(details));
  }

 private:
  const SyncRequest& request_;
  process::Runner& runner_;
  std::vector<std::string> last_argv_;
};

bool succeeded(const Completion& done) {
  return done.status == Completion::Status::Exited && done.exit_code == 0;
}

}  // namespace

std::string skills_repository_url(const std::optional<std::string>& flag) {
  if (flag && !flag->empty()) return *flag;
  if (auto value = non_blank_environment("CLAWPERATOR_SKILLS_REPO")) return *value;
  return std::string(kDefaultSkillsRepository);
}

contract::Outcome<fs::path> skills_directory() {
  if (auto value = non_blank_environment("CLAWPERATOR_SKILLS_DIR")) return fs::path(*value);
  std::optional<fs::path> home;
  if (auto from_env = non_blank_environment("HOME")) {
    home = fs::path(*from_env);
  } else if (auto entry = io::passwd_home_directory(::geteuid())) {
    home = fs::path(*entry);
  }
  if (auto directory = installed_skills_directory(home)) return *directory;
  Json details = Json::object();
  details["reason"] = "no home directory";
  return contract::failed(contract::readiness_error(
      "REGISTRY_READ_FAILED",
      "Cannot place the skills repository: HOME is unset and the user has no home directory; "
      "set HOME or CLAWPERATOR_SKILLS_DIR",
      std::move(details)));
}

namespace {

// A value of `flag` that reaches git's argv: refused when git could read it as an option or
// when it holds a control byte. `what` names the value in the message ("a git ref").
contract::Status check_git_value(std::string_view value, std::string_view flag,
                                 std::string_view detail_key, std::string_view what) {
  const auto refuse = [&](std::string message) {
    HostError error = contract::usage_error("USAGE", std::move(message));
    error.details["flag"] = std::string(flag);
    error.details[std::string(detail_key)] = std::string(value);
    return contract::failed(std::move(error));
  };
  if (value.empty()) return refuse(std::string(flag) + " requires " + std::string(what));
  if (value.front() == '-') {
    return refuse(std::string(flag) + " '" + std::string(value) +
                  "' starts with '-': git would read it as an option");
  }
  for (const char c : value) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return refuse(std::string(flag) + " holds a control character");
    }
  }
  return {};
}

}  // namespace

contract::Status check_skills_ref(std::string_view ref) {
  return check_git_value(ref, "--ref", "ref", "a git ref (a branch, tag or commit)");
}

contract::Status check_skills_repository(std::string_view repository) {
  return check_git_value(repository, "--repo", "repository", "a git repository (a URL or a path)");
}

contract::Outcome<Json> sync_skills(const SyncRequest& request, process::Runner& runner) {
  if (contract::Status ref = check_skills_ref(request.ref); !ref) {
    return contract::failed(ref.error());
  }
  if (contract::Status repository = check_skills_repository(request.repository); !repository) {
    return contract::failed(repository.error());
  }
  io::log_event(io::LogLevel::Info, "skills.sync.start",
                Json{{"directory", request.directory.string()}, {"ref", request.ref}});
  GitSession git(request, runner);
  const Completion version = git.run({"--version"});
  if (version.status == Completion::Status::Cancelled) {
    return contract::failed(git.failure(version));
  }
  if (!succeeded(version)) {
    Json details = Json::object();
    details["git"] = request.git;
    if (version.status == Completion::Status::SpawnFailed) {
      details["errno"] = version.spawn_errno;
    } else {
      details["exitCode"] = version.exit_code;
      details["stderr"] = clipped_git_text(version.err);
    }
    return contract::failed(contract::readiness_error(
        "SKILLS_GIT_NOT_FOUND",
        "git is not installed or not on PATH; install git to sync the skills repository",
        std::move(details)));
  }

  const std::string dir = request.directory.string();
  std::error_code error;
  if (fs::exists(request.directory / ".git", error)) {
    if (!succeeded(git.run({"-C", dir, "remote", "get-url", "origin"}))) {
      if (Completion added =
              git.run({"-C", dir, "remote", "add", "--", "origin", request.repository});
          !succeeded(added)) {
        return contract::failed(git.failure(added));
      }
    }
    if (Completion fetched = git.run({"-C", dir, "fetch", "origin", "--quiet"});
        !succeeded(fetched)) {
      return contract::failed(git.failure(fetched));
    }
    if (Completion checked_out = git.run({"-C", dir, "checkout", request.ref, "--"});
        !succeeded(checked_out)) {
      return contract::failed(git.failure(checked_out));
    }
    // A tag or a commit leaves HEAD detached: nothing to fast-forward.
    if (succeeded(git.run({"-C", dir, "symbolic-ref", "HEAD"}, kGitSymbolicRefTimeout))) {
      if (Completion merged =
              git.run({"-C", dir, "merge", "--ff-only", "--quiet", "--", "origin/" + request.ref});
          !succeeded(merged)) {
        return contract::failed(git.failure(merged));
      }
    }
  } else {
    fs::create_directories(request.directory.parent_path(), error);
    if (Completion cloned = git.run({"clone", "--", request.repository, dir}); !succeeded(cloned)) {
      return contract::failed(git.failure(cloned));
    }
    if (request.ref != kDefaultSkillsRef) {
      if (Completion checked_out = git.run({"-C", dir, "checkout", request.ref, "--"});
          !succeeded(checked_out)) {
        return contract::failed(git.failure(checked_out));
      }
    }
  }

  const fs::path registry_path = installed_registry_path(request.directory);
  auto registry = load_registry({registry_path, RegistrySource::Installed});
  if (!registry) {
    Json details = Json::object();
    details["registryPath"] = registry_path.string();
    details["reason"] = registry.error().details.value("reason", std::string());
    return contract::failed(contract::readiness_error(
        "SKILLS_SYNC_FAILED",
        "Skills sync failed: the repository has no readable registry at " + registry_path.string() +
            " (" + registry.error().message + ")",
        std::move(details)));
  }
  Json out = Json::object();
  out["synced"] = true;
  out["message"] = "Skills synced to " + dir + " (ref: " + request.ref + ")";
  out["registryPath"] = registry_path.string();
  out["directory"] = dir;
  out["ref"] = request.ref;
  out["repository"] = request.repository;
  out["skillCount"] = registry->skills.size();
  if (request.install) {
    out["envInstruction"] = "export CLAWPERATOR_SKILLS_REGISTRY=\"" + registry_path.string() + "\"";
  }
  io::log_event(io::LogLevel::Info, "skills.sync.complete",
                Json{{"directory", dir}, {"ref", request.ref}});
  return out;
}

}  // namespace clawperator::skills
