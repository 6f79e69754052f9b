// WarmFollowers (include/clawperator/exec/execution.hpp): one idle logcat reader per device,
// read and discarded by a thread of its own until an execution takes it. Reading it while
// idle keeps it current: a reader nobody reads fills its pipe, then adb's buffers, and the
// next execution would first wade through minutes of old lines (or find it kicked by logd).
#include <algorithm>
#include <list>
#include <mutex>
#include <thread>

#include "clawperator/exec/execution.hpp"
#include "clawperator/io/log.hpp"

namespace clawperator::exec {
namespace {

// A cancellation (take) or the reader's exit ends a drain wait at once: this only bounds how
// often an idle thread wakes up for nothing.
constexpr std::chrono::milliseconds kDrainSlice{60000};

class IdleReader {
 public:
  IdleReader(std::string device_key, WarmFollowers::Reader reader)
      : device_key_(std::move(device_key)),
        answered_package_(std::move(reader.answered_package)),
        shows_uids_(reader.shows_uids),
        shell_server_(reader.shell_server),
        stream_(std::move(reader.stream)) {
    stream_->watch(stop_.token());
    drainer_ = std::thread([this] { drain(); });
  }
  // The thread is joined before the stream goes (its destructor stops and reaps the child).
  ~IdleReader() { stop_draining(); }
  IdleReader(const IdleReader&) = delete;
  IdleReader& operator=(const IdleReader&) = delete;

  const std::string& device_key() const { return device_key_; }
  int pid() const { return stream_ ? stream_->pid() : -1; }

  // Ends the drain; the reader, unless it exited meanwhile (then no stream, and it is reaped).
  WarmFollowers::Reader release() {
    stop_draining();
    if (exited_) {
      stream_.reset();
      return {};
    }
    return {std::move(stream_), std::move(answered_package_), shows_uids_, shell_server_};
  }

 private:
  void stop_draining() {
    if (!drainer_.joinable()) return;
    stop_.cancel();
    drainer_.join();
  }

  void drain() {
    for (;;) {
      const process::StreamEvent event = stream_->wait(kDrainSlice);
      if (event.exited) {
        exited_ = true;  // read after join(), which orders it
        return;
      }
      // take(), the pool's end, or SIGINT/SIGTERM (the server is going away).
      if (event.cancelled) return;
    }
  }

  std::string device_key_;
  std::string answered_package_;
  std::optional<bool> shows_uids_;
  std::optional<adb::LoopbackTcpServer> shell_server_;
  std::unique_ptr<process::Stream> stream_;
  process::CancelSource stop_;
  bool exited_ = false;
  std::thread drainer_;
};

}  // namespace

struct WarmFollowers::Pool {
  explicit Pool(std::size_t max) : max_devices(std::max<std::size_t>(max, 1)) {}
  std::size_t max_devices;
  mutable std::mutex mutex;
  // Least recently kept first.
  std::list<std::unique_ptr<IdleReader>> idle;
};

WarmFollowers::WarmFollowers(std::size_t max_devices)
    : pool_(std::make_unique<Pool>(max_devices)) {}

WarmFollowers::~WarmFollowers() = default;

WarmFollowers::Reader WarmFollowers::take(const std::string& device_key,
                                          const process::CancelToken& cancel) {
  std::unique_ptr<IdleReader> found;
  {
    const std::lock_guard<std::mutex> lock(pool_->mutex);
    const auto it = std::find_if(pool_->idle.begin(), pool_->idle.end(), [&](const auto& idle) {
      return idle->device_key() == device_key;
    });
    if (it == pool_->idle.end()) return {};
    found = std::move(*it);
    pool_->idle.erase(it);
  }
  // Joined outside the lock: another device's execution need not wait for this one.
  Reader reader = found->release();
  if (!reader.stream) {
    io::log_event(io::LogLevel::Debug, "exec.warm_reader_exited", Json{{"device", device_key}});
    return {};
  }
  reader.stream->watch(cancel);
  return reader;
}

void WarmFollowers::keep(const std::string& device_key, Reader reader) {
  if (!reader.stream) return;
  auto idle = std::make_unique<IdleReader>(device_key, std::move(reader));
  std::list<std::unique_ptr<IdleReader>> dropped;
  {
    const std::lock_guard<std::mutex> lock(pool_->mutex);
    // Two executions on one device at once happen only without a device lock (no state
    // directory): the newer reader stays.
    for (auto it = pool_->idle.begin(); it != pool_->idle.end();) {
      auto next = std::next(it);
      if ((*it)->device_key() == device_key) dropped.splice(dropped.end(), pool_->idle, it);
      it = next;
    }
    pool_->idle.push_back(std::move(idle));
    while (pool_->idle.size() > pool_->max_devices) {
      dropped.splice(dropped.end(), pool_->idle, pool_->idle.begin());
    }
  }
  // `dropped` stops and reaps its readers here, outside the lock.
}

std::vector<int> WarmFollowers::reader_pids() const {
  const std::lock_guard<std::mutex> lock(pool_->mutex);
  std::vector<int> pids;
  for (const auto& idle : pool_->idle) pids.push_back(idle->pid());
  return pids;
}

}  // namespace clawperator::exec
