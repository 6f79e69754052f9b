#include "clawperator/cli/serve_token.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "clawperator/process/unique_fd.hpp"

namespace clawperator::cli {
namespace {

using process::UniqueFd;

std::string kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// A failure with no place in the input: the errno text, or what is wrong with the token.
Unexpected<Problem> token_problem(std::string message) {
  return Unexpected(Problem{"", std::move(message)});
}

// Reads what is there, up to one read beyond the bound, from a descriptor that never blocks;
// a failure as the errno text.
Expected<std::string, Problem> read_bounded(int fd) {
  std::string content;
  char buffer[1024];
  while (content.size() <= kMaxServeTokenBytes) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) return content;
    if (got < 0) {
      if (errno == EINTR) continue;
      return token_problem(std::strerror(errno));
    }
    content.append(buffer, static_cast<std::size_t>(got));
  }
  return content;
}

}  // namespace

Expected<void, Problem> check_serve_token(const std::string& token) {
  if (token.size() > kMaxServeTokenBytes) {
    return token_problem("larger than " + std::to_string(kMaxServeTokenBytes) + " bytes");
  }
  if (token.empty()) return token_problem("empty");
  for (const char c : token) {
    // A header line carries the token: a line break or another control character would end
    // or corrupt it, so such a token could never be presented.
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return token_problem("more than one line, or a control character");
    }
  }
  return {};
}

Expected<std::string, Problem> read_token_file(const std::string& path) {
  const auto refuse = [&path](std::string message) {
    return Unexpected(Problem{path, std::move(message)});
  };
  // stat before open: a FIFO would block the open (or, with O_NONBLOCK, be read empty later),
  // and opening a device runs its driver. The fstat of the opened file below is what counts.
  struct stat named {};
  if (::stat(path.c_str(), &named) != 0) {
    return refuse(errno == ENOENT ? std::string("no such file") : std::strerror(errno));
  }
  if (!S_ISREG(named.st_mode)) return refuse(kind_of(named.st_mode));
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd.valid()) return refuse(std::strerror(errno));
  struct stat opened {};
  if (::fstat(fd.get(), &opened) != 0) return refuse(std::strerror(errno));
  if (!S_ISREG(opened.st_mode)) return refuse(kind_of(opened.st_mode));
  if (opened.st_uid != ::geteuid()) {
    return refuse("owner uid " + std::to_string(opened.st_uid) + ", not this user (uid " +
                  std::to_string(::geteuid()) + ")");
  }
  if ((opened.st_mode & 077) != 0) {
    return refuse("mode " + octal_mode(opened.st_mode) +
                  ": group or others may read it; chmod 600 it");
  }
  auto content = read_bounded(fd.get());
  if (!content) return refuse(std::move(content.error().message));
  std::string token = std::move(*content);
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
  if (auto checked = check_serve_token(token); !checked) {
    return refuse(std::move(checked.error().message));
  }
  return token;
}

Expected<std::string, Problem> read_token_pipe(int fd) {
  const UniqueFd owned(fd);
  struct stat status {};
  if (::fstat(fd, &status) != 0) return token_problem(std::strerror(errno));
  if (!S_ISFIFO(status.st_mode)) return token_problem(kind_of(status.st_mode) + ", not a pipe");
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
    return token_problem(std::strerror(errno));
  }
  auto token = read_bounded(fd);
  if (!token) {
    // EAGAIN: what was written is read and a writer is still there; `clawperator serve`
    // closes its end before the exec, so this pipe is not its.
    return token_problem("the pipe is still open for writing (" + token.error().message + ")");
  }
  CLAWPERATOR_TRY(check_serve_token(*token));
  return token;
}

std::vector<std::string> without_token_arguments(const std::vector<std::string>& arguments) {
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    if (i > 0 && (argument == "--token" || argument == "--token-file")) {
      ++i;  // and its value
      continue;
    }
    if (i > 0 && (argument.starts_with("--token=") || argument.starts_with("--token-file="))) {
      continue;
    }
    kept.push_back(arguments[i]);
  }
  return kept;
}

Expected<int, Problem> token_pipe(const std::string& token) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) return token_problem(std::strerror(errno));
  UniqueFd read_end(ends[0]);
  const UniqueFd write_end(ends[1]);
  // Far below a pipe's capacity (64 KiB on Linux, at least 4 KiB by POSIX's PIPE_BUF): the
  // write completes without a reader.
  std::size_t done = 0;
  while (done < token.size()) {
    const ssize_t wrote = ::write(write_end.get(), token.data() + done, token.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return token_problem(std::strerror(errno));
    done += static_cast<std::size_t>(wrote);
  }
  if (::fcntl(read_end.get(), F_SETFD, 0) != 0) return token_problem(std::strerror(errno));
  return read_end.release();
}

}  // namespace clawperator::cli
