// `skills install|update|sync` (docs/skills.md, "Installing and updating"): the skills
// repository cloned into, or brought up to a ref in, ~/.clawperator/skills with git's own
// command lines (argv, never a shell; each call under a deadline, its output bounded), and the
// registry it holds checked afterwards.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::skills {

inline constexpr std::string_view kDefaultSkillsRepository =
    "https://github.com/clawperator/clawperator-skills";
inline constexpr std::string_view kDefaultSkillsRef = "main";
inline constexpr std::chrono::milliseconds kGitTimeout{120000};
inline constexpr std::chrono::milliseconds kGitSymbolicRefTimeout{5000};
// Per stream of each git call; git's messages are short, a progress flood is cut.
inline constexpr std::size_t kMaxGitOutputBytes = std::size_t{1} << 20;

struct SyncRequest {
  std::string repository;  // the URL cloned from (--repo, CLAWPERATOR_SKILLS_REPO, the default)
  std::string ref{kDefaultSkillsRef};
  std::filesystem::path directory;  // where the repository goes
  std::string git = "git";
  bool install = false;  // `skills install`: the answer also says how to use the registry
};

// --repo, else CLAWPERATOR_SKILLS_REPO (blank: unset), else kDefaultSkillsRepository.
std::string skills_repository_url(const std::optional<std::string>& flag);

// CLAWPERATOR_SKILLS_DIR (blank: unset; for tests and unusual layouts), else
// ~/.clawperator/skills ($HOME, else the passwd entry's home). REGISTRY_READ_FAILED without a
// home.
contract::Outcome<std::filesystem::path> skills_directory();

// USAGE unless `ref` is a usable git ref: not empty, not starting with '-' (git would read it
// as an option), no NUL or control byte.
contract::Status check_skills_ref(std::string_view ref);
// The same for `--repo` (details.flag "--repo"): `--upload-pack=…` never reaches git as an
// option. git also gets `--` before every caller value (skills_repository.cpp).
contract::Status check_skills_repository(std::string_view repository);

// `git --version` (SKILLS_GIT_NOT_FOUND when it cannot run); then, for a directory with a
// .git: `git -C DIR remote get-url origin` (else `remote add origin URL`), `fetch origin
// --quiet`, `checkout REF`, and when `symbolic-ref HEAD` says a branch is checked out,
// `merge --ff-only --quiet origin/REF`; otherwise `git clone URL DIR` and, for a ref other
// than main, `checkout REF`. A git failure is SKILLS_SYNC_FAILED with details.argv,
// details.exitCode and git's own details.stderr; a registry that is not there or not readable
// afterwards is SKILLS_SYNC_FAILED too. Success: {synced, message, registryPath, directory,
// ref, repository} (+ envInstruction for install).
contract::Outcome<Json> sync_skills(const SyncRequest& request, process::Runner& runner);

}  // namespace clawperator::skills
