#include "vdevice/emulator/console_token.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

#include "clawperator/process/unique_fd.hpp"

namespace clawperator::vdevice::emulator {
namespace {

constexpr const char* kTokenFile = ".emulator_console_auth_token";
constexpr std::size_t kTokenLength = 16;
constexpr std::size_t kMaxTokenFile = 4096;

// The emulator's tokens are base64 text; any printable token works as long as adb and the
// console read the same file.
std::string random_token() {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::random_device device;
  std::uniform_int_distribution<std::size_t> pick(0, sizeof kAlphabet - 2);
  std::string token;
  for (std::size_t i = 0; i < kTokenLength; ++i) token.push_back(kAlphabet[pick(device)]);
  return token;
}

ConsoleToken unavailable(ConsoleToken token, const std::string& what, int error) {
  token.auth = ConsoleAuth::Unavailable;
  token.error = what + " " + token.path + ": " + std::strerror(error);
  return token;
}

}  // namespace

ConsoleToken load_console_token(const char* home) {
  ConsoleToken result;
  if (home == nullptr || *home == '\0') {
    result.error = "HOME is not set: no console token file";
    return result;
  }
  result.path = std::string(home) + "/" + kTokenFile;
  process::UniqueFd fd(::open(result.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid() && errno == ENOENT) {
    // O_EXCL: an emulator starting beside us may create it first; then its token is read.
    const std::string token = random_token();
    process::UniqueFd created(
        ::open(result.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR | S_IWUSR));
    if (created.valid()) {
      if (::write(created.get(), token.data(), token.size()) !=
          static_cast<ssize_t>(token.size())) {
        return unavailable(std::move(result), "cannot write", errno);
      }
      result.auth = ConsoleAuth::Required;
      result.token = token;
      return result;
    }
    if (errno != EEXIST) return unavailable(std::move(result), "cannot create", errno);
    fd = process::UniqueFd(::open(result.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  }
  if (!fd.valid()) return unavailable(std::move(result), "cannot open", errno);
  char buffer[kMaxTokenFile];
  std::size_t total = 0;
  while (total < sizeof buffer) {
    const ssize_t got = ::read(fd.get(), buffer + total, sizeof buffer - total);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return unavailable(std::move(result), "cannot read", errno);
    if (got == 0) break;
    total += static_cast<std::size_t>(got);
  }
  result.token.assign(buffer, total);
  result.auth = result.token.empty() ? ConsoleAuth::Disabled : ConsoleAuth::Required;
  return result;
}

}  // namespace clawperator::vdevice::emulator
