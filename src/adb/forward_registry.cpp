#include "clawperator/adb/forward_registry.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <vector>

#include "clawperator/io/atomic_file.hpp"

namespace clawperator::adb {
namespace {

constexpr std::chrono::milliseconds kForwardCallTimeout{5000};

std::optional<long> parse_number(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

bool process_gone(pid_t pid) {
  return ::kill(pid, 0) != 0 && errno == ESRCH;
}

}  // namespace

ForwardRegistry::ForwardRegistry(const io::StateDirectory* directory, const std::string& device_key,
                                 const std::string& serial)
    : directory_(directory), serial_(serial), prefix_("forward-" + device_key + "-") {}

std::string ForwardRegistry::name_of(int port) const {
  return prefix_ + std::to_string(port);
}

void ForwardRegistry::record(int port) const {
  if (directory_ == nullptr) return;
  auto opened = directory_->open_file(name_of(port), O_WRONLY | O_CREAT | O_TRUNC);
  if (!opened) return;  // best effort: the forward is still removed by this run
  const io::StateDirectory::OpenedFile* file = &*opened;
  const std::string text = std::to_string(::getpid()) + "\n";
  (void)!::write(file->fd, text.data(), text.size());
  ::close(file->fd);
}

void ForwardRegistry::forget(int port) const {
  if (directory_ != nullptr) directory_->remove(name_of(port));
}

int ForwardRegistry::sweep_stale(adb::AdbClient& client, const std::string& socket_prefix) const {
  if (directory_ == nullptr) return 0;
  std::vector<int> stale;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory_->path(), error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix_, 0) != 0) continue;
    const std::optional<long> port = parse_number(std::string_view(name).substr(prefix_.size()));
    if (!port || *port > 65535) continue;
    auto opened = directory_->open_file(name, O_RDONLY);
    if (!opened) continue;
    const io::StateDirectory::OpenedFile* file = &*opened;
    char text[32] = {};
    const ssize_t n = ::read(file->fd, text, sizeof text - 1);
    ::close(file->fd);
    const std::optional<long> pid = n > 0 ? parse_number(std::string_view(text, n)) : std::nullopt;
    if (!pid || process_gone(static_cast<pid_t>(*pid))) stale.push_back(static_cast<int>(*port));
  }
  if (stale.empty()) return 0;
  const process::Completion listed = client.list_forwards(kForwardCallTimeout);
  if (listed.status != process::Completion::Status::Exited || listed.exit_code != 0) return 0;
  int removed = 0;
  for (const int port : stale) {
    // Only what is still ours: the port may have been reused for someone else's forward.
    const std::string line =
        serial_ + " tcp:" + std::to_string(port) + " localabstract:" + socket_prefix;
    if (("\n" + listed.out).find("\n" + line) != std::string::npos) {
      const process::Completion gone = client.remove_forward(serial_, port, kForwardCallTimeout);
      if (gone.status == process::Completion::Status::Exited && gone.exit_code == 0) ++removed;
    }
    forget(port);
  }
  return removed;
}

}  // namespace clawperator::adb
