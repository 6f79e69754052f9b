#include "clawperator/serve/artifact_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/service/actions.hpp"

namespace clawperator::serve {
namespace {

constexpr std::string_view kExtension = ".png";
constexpr std::string_view kRoute = "/artifacts/";

bool is_screenshot(const contract::Action& action) {
  return contract::action_spec(action.type).post_processing ==
         contract::PostProcessing::CaptureScreenshot;
}

// An id as this store makes them: "shot-<ms>-<suffix>", letters, digits and '-' only.
bool well_formed_id(std::string_view id) {
  if (id.size() < 6 || id.size() > 64 || id.substr(0, 5) != "shot-") return false;
  for (const char c : id) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!allowed) return false;
  }
  return true;
}

}  // namespace

Expected<std::unique_ptr<ArtifactStore>, io::DirectoryError> ArtifactStore::create(
    const io::StateDirectory& state, ArtifactLimits limits) {
  const std::filesystem::path path =
      state.path() / ("serve-artifacts-" + std::to_string(::getpid()));
  auto directory =
      io::StateDirectory::open(path, state.owner(), io::StateDirectory::Symlinks::Refuse);
  if (!directory) return Unexpected<io::DirectoryError>{directory.error()};
  // A directory of a crashed server that had our pid: its files are nobody's now.
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(path, ignored)) {
    directory->remove(entry.path().filename().string());
  }
  std::filesystem::path absolute = std::filesystem::absolute(path, ignored);
  if (ignored) absolute = path;
  return std::unique_ptr<ArtifactStore>(
      new ArtifactStore(std::move(*directory), std::move(absolute), limits));
}

ArtifactStore::~ArtifactStore() {
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(directory_.path(), ignored)) {
    directory_.remove(entry.path().filename().string());
  }
  std::filesystem::remove(directory_.path(), ignored);
}

std::filesystem::path ArtifactStore::new_screenshot_path() const {
  const std::string id = service::stamped_id("shot", service::make_id_stamp());
  return absolute_ / (id + std::string(kExtension));
}

void ArtifactStore::direct_screenshots(contract::Execution& execution) const {
  for (contract::Action& action : execution.actions) {
    if (!is_screenshot(action)) continue;
    if (!action.params) action.params.emplace();
    action.params->path = new_screenshot_path().string();
  }
}

void ArtifactStore::adopt(Json& document) {
  const auto envelope = document.find("envelope");
  if (envelope == document.end() || !envelope->is_object()) return;
  const auto steps = envelope->find("stepResults");
  if (steps == envelope->end() || !steps->is_array()) return;
  for (Json& step : *steps) {
    if (!step.is_object() || !step.contains("data") || !step["data"].is_object()) continue;
    adopt_file(step["data"]);
  }
}

void ArtifactStore::adopt_file(Json& data) {
  const auto path = data.find("path");
  if (path == data.end() || !path->is_string()) return;
  const std::filesystem::path file = path->get<std::string>();
  if (file.parent_path() != absolute_ || file.extension() != kExtension) return;
  const std::string id = file.stem().string();
  data.erase("path");
  if (!well_formed_id(id)) return;
  auto opened = directory_.open_file(id + std::string(kExtension), O_RDONLY);
  if (!opened) return;
  const auto size = static_cast<std::uintmax_t>(opened->status.st_size);
  ::close(opened->fd);
  data["artifactId"] = id;
  data["artifactUrl"] = std::string(kRoute) + id;
  const std::lock_guard lock(mutex_);
  entries_.push_back({id, size});
  bytes_ += size;
  while (entries_.size() > limits_.max_count ||
         (bytes_ > limits_.max_bytes && entries_.size() > 1)) {
    directory_.remove(entries_.front().id + std::string(kExtension));
    bytes_ -= entries_.front().bytes;
    entries_.pop_front();
  }
}

std::optional<std::string> ArtifactStore::read(std::string_view id) const {
  if (!well_formed_id(id)) return std::nullopt;
  {
    const std::lock_guard lock(mutex_);
    bool held = false;
    for (const Entry& entry : entries_) held = held || entry.id == id;
    if (!held) return std::nullopt;
  }
  auto opened = directory_.open_file(std::string(id) + std::string(kExtension), O_RDONLY);
  if (!opened) return std::nullopt;
  std::string bytes;
  bytes.resize(static_cast<std::size_t>(opened->status.st_size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::read(opened->fd, bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += static_cast<std::size_t>(got);
  }
  ::close(opened->fd);
  bytes.resize(done);
  return bytes;
}

std::size_t ArtifactStore::count() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace clawperator::serve
