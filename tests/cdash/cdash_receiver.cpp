// cdash_receiver: a loopback stand-in for a CDash server, for testing dashboard submissions.
//
//   cdash_receiver --dir DIR [--port-file FILE] [--timeout SECONDS]
//                  [--http-status CODE] [--cdash-status OK|WARNING|ERROR]
//
// Listens on 127.0.0.1 on a port the OS chooses, writes that port to FILE (atomically, once
// it accepts connections), and answers every request the way CDash's submit.php answers
// CTest: HTTP 200 with
//   <cdash version="..."><status>OK</status><message></message><md5>..</md5><buildId>..</buildId></cdash>
// where md5 echoes the MD5 query parameter CTest sent. Every request is stored before it is
// answered, as DIR/NNNN.meta (method, target, path, query, decoded query parameters, headers,
// body size) and DIR/NNNN.body, with one line per request in DIR/index.txt. It exits 0 when
// the timeout ends (default 60 s) and 77 when it cannot listen on, or connect to, a loopback
// port.
// --http-status and --cdash-status make it answer as a failing server would.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Options {
  std::string dir;
  std::string port_file;
  double timeout_s = 60;
  int http_status = 200;
  std::string cdash_status = "OK";
};

struct Request {
  std::string method, target, path, query, version;
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::pair<std::string, std::string>> params;
  std::string body;
};

[[noreturn]] void usage(const char* why) {
  std::cerr << "cdash_receiver: " << why << "\n"
            << "usage: cdash_receiver --dir DIR [--port-file FILE] [--timeout SECONDS]"
               " [--http-status CODE] [--cdash-status OK|WARNING|ERROR]\n";
  std::exit(2);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// %XX decoding only: '+' stays '+' (CTest escapes what it needs with %XX).
std::string percent_decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

const std::string* header(const Request& r, const std::string& name) {
  for (const auto& h : r.headers)
    if (lower(h.first) == name) return &h.second;
  return nullptr;
}

const std::string* param(const Request& r, const std::string& name) {
  for (const auto& p : r.params)
    if (p.first == name) return &p.second;
  return nullptr;
}

bool send_all(int fd, const std::string& data) {
  size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

// Buffered reads from one connection (with the socket's receive timeout).
struct Conn {
  int fd;
  std::string buf;
  bool fill() {
    char tmp[65536];
    for (;;) {
      ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      buf.append(tmp, static_cast<size_t>(n));
      return true;
    }
  }
  bool read_until(const std::string& delim, std::string& out, size_t limit) {
    size_t pos;
    while ((pos = buf.find(delim)) == std::string::npos) {
      if (buf.size() > limit || !fill()) return false;
    }
    out = buf.substr(0, pos);
    buf.erase(0, pos + delim.size());
    return true;
  }
  bool read_exact(size_t n, std::string& out) {
    while (buf.size() < n)
      if (!fill()) return false;
    out.append(buf, 0, n);
    buf.erase(0, n);
    return true;
  }
};

constexpr size_t kMaxBody = size_t{512} << 20;

// Reads one request; answers "100 Continue" when the client asks for it (curl does for
// larger uploads). Returns false on a malformed request or a closed connection.
bool read_request(Conn& c, Request& r, std::string& error) {
  std::string head;
  if (!c.read_until("\r\n\r\n", head, 1 << 20)) {
    error = "connection closed before a complete request head";
    return false;
  }
  std::istringstream lines(head);
  std::string line;
  std::getline(lines, line);
  line = trim(line);
  std::istringstream first(line);
  if (!(first >> r.method >> r.target >> r.version)) {
    error = "bad request line: " + line;
    return false;
  }
  while (std::getline(lines, line)) {
    line = trim(line);
    if (line.empty()) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    r.headers.emplace_back(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
  size_t q = r.target.find('?');
  r.path = r.target.substr(0, q);
  r.query = q == std::string::npos ? "" : r.target.substr(q + 1);
  std::istringstream qs(r.query);
  std::string kv;
  while (std::getline(qs, kv, '&')) {
    if (kv.empty()) continue;
    size_t eq = kv.find('=');
    r.params.emplace_back(percent_decode(kv.substr(0, eq)),
                          eq == std::string::npos ? "" : percent_decode(kv.substr(eq + 1)));
  }
  const std::string* expect = header(r, "expect");
  if (expect && lower(*expect) == "100-continue" && !send_all(c.fd, "HTTP/1.1 100 Continue\r\n\r\n")) {
    error = "could not send 100 Continue";
    return false;
  }
  const std::string* te = header(r, "transfer-encoding");
  if (te && lower(*te).find("chunked") != std::string::npos) {
    for (;;) {
      std::string size_line;
      if (!c.read_until("\r\n", size_line, 1024)) {
        error = "truncated chunked body";
        return false;
      }
      size_t n = std::strtoul(size_line.c_str(), nullptr, 16);
      if (r.body.size() + n > kMaxBody) {
        error = "body too large";
        return false;
      }
      if (n == 0) {
        std::string trailer;
        while (c.read_until("\r\n", trailer, 1 << 16) && !trailer.empty()) {
        }
        break;
      }
      std::string crlf;
      if (!c.read_exact(n, r.body) || !c.read_exact(2, crlf)) {
        error = "truncated chunk";
        return false;
      }
    }
  } else if (const std::string* cl = header(r, "content-length")) {
    size_t n = std::strtoul(cl->c_str(), nullptr, 10);
    if (n > kMaxBody) {
      error = "body too large";
      return false;
    }
    if (!c.read_exact(n, r.body)) {
      error = "truncated body (Content-Length " + *cl + ")";
      return false;
    }
  }
  return true;
}

bool write_file(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary);
  f << data;
  return static_cast<bool>(f);
}

void store(const Options& o, int seq, const Request& r) {
  char id[16];
  std::snprintf(id, sizeof id, "%04d", seq);
  std::ostringstream meta;
  meta << "method " << r.method << "\n"
       << "target " << r.target << "\n"
       << "path " << r.path << "\n"
       << "query " << r.query << "\n"
       << "version " << r.version << "\n";
  for (const auto& p : r.params) meta << "param " << p.first << "=" << p.second << "\n";
  for (const auto& h : r.headers) meta << "header " << h.first << ": " << h.second << "\n";
  meta << "body_bytes " << r.body.size() << "\n";
  write_file(o.dir + "/" + id + ".body", r.body);
  write_file(o.dir + "/" + id + ".meta", meta.str());
  const std::string* file = param(r, "FileName");
  std::ofstream index(o.dir + "/index.txt", std::ios::app);
  index << id << " " << r.method << " " << (file ? *file : r.path) << " " << r.body.size() << "\n";
}

std::string status_text(int code) {
  switch (code) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
  }
}

void respond(int fd, int code, const std::string& body) {
  std::ostringstream out;
  out << "HTTP/1.1 " << code << " " << status_text(code) << "\r\n"
      << "Content-Type: text/xml\r\n"
      << "Content-Length: " << body.size() << "\r\n"
      << "Connection: close\r\n\r\n"
      << body;
  send_all(fd, out.str());
}

void serve(const Options& o, int fd, int& seq, int build_id) {
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  Conn c{fd, {}};
  Request r;
  std::string error;
  if (!read_request(c, r, error)) {
    if (!c.buf.empty() || error.find("before a complete") == std::string::npos)
      std::cerr << "cdash_receiver: " << error << "\n";
    respond(fd, 400, "<cdash version=\"3.3.0\"><status>ERROR</status><message>bad request</message></cdash>\n");
    return;
  }
  store(o, ++seq, r);
  const std::string* md5 = param(r, "MD5");
  std::ostringstream body;
  // What CDash's submit.php answers; CTest 3.25 parses <status> (OK/SUCCESS, WARNING or
  // anything else = error), <message>, <md5> and <buildId>, and treats the words WARNING or
  // ERROR anywhere in the answer as a warning or error, so the OK answer contains neither.
  body << "<cdash version=\"3.3.0\">\n"
       << "  <status>" << o.cdash_status << "</status>\n"
       << "  <message>" << (o.cdash_status == "OK" ? "" : "rejected by cdash_receiver") << "</message>\n"
       << "  <md5>" << (md5 ? *md5 : "") << "</md5>\n"
       << "  <buildId>" << build_id << "</buildId>\n"
       << "</cdash>\n";
  respond(fd, o.http_status, body.str());
  std::cout << "cdash_receiver: " << r.method << " " << r.path << " "
            << (param(r, "FileName") ? *param(r, "FileName") : "") << " (" << r.body.size()
            << " bytes) -> " << o.http_status << "\n"
            << std::flush;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--dir") o.dir = next();
    else if (a == "--port-file") o.port_file = next();
    else if (a == "--timeout") o.timeout_s = std::atof(next().c_str());
    else if (a == "--http-status") o.http_status = std::atoi(next().c_str());
    else if (a == "--cdash-status") o.cdash_status = next();
    else usage(("unknown argument " + a).c_str());
  }
  if (o.dir.empty()) usage("--dir is required");
  if (o.http_status < 100 || o.http_status > 599) usage("--http-status must be an HTTP status code");
  std::signal(SIGPIPE, SIG_IGN);

  int ls = ::socket(AF_INET, SOCK_STREAM, 0);
  if (ls < 0) {
    std::cerr << "cdash_receiver: cannot create a TCP socket: " << std::strerror(errno) << "\n";
    return 77;
  }
  int one = 1;
  ::setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(ls, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(ls, 16) != 0) {
    std::cerr << "cdash_receiver: cannot listen on 127.0.0.1: " << std::strerror(errno) << "\n";
    return 77;
  }
  socklen_t len = sizeof addr;
  ::getsockname(ls, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  // Binding can succeed where loopback traffic cannot flow (a network namespace with "lo"
  // down): connect to ourselves once before announcing the port.
  {
    int probe = ::socket(AF_INET, SOCK_STREAM, 0);
    if (probe < 0 || ::connect(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      std::cerr << "cdash_receiver: listening on 127.0.0.1:" << port
                << " but cannot connect to it: " << std::strerror(errno) << "\n";
      return 77;
    }
    int accepted = ::accept(ls, nullptr, nullptr);
    if (accepted >= 0) ::close(accepted);
    ::close(probe);
  }
  if (!o.port_file.empty()) {
    const std::string tmp = o.port_file + ".partial";
    if (!write_file(tmp, std::to_string(port) + "\n") || std::rename(tmp.c_str(), o.port_file.c_str()) != 0) {
      std::cerr << "cdash_receiver: cannot write " << o.port_file << "\n";
      return 1;
    }
  }
  std::cout << "cdash_receiver: listening on 127.0.0.1:" << port << ", storing requests in " << o.dir
            << ", for " << o.timeout_s << " s\n"
            << std::flush;

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000));
  int seq = 0;
  const int build_id = 4200 + static_cast<int>(::getpid() % 100);
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) break;
    pollfd p{ls, POLLIN, 0};
    int n = ::poll(&p, 1, static_cast<int>(left > 1000 ? 1000 : left));
    if (n < 0 && errno != EINTR) {
      std::cerr << "cdash_receiver: poll: " << std::strerror(errno) << "\n";
      return 1;
    }
    if (n <= 0) continue;
    int fd = ::accept(ls, nullptr, nullptr);
    if (fd < 0) continue;
    serve(o, fd, seq, build_id);
    ::close(fd);
  }
  ::close(ls);
  std::cout << "cdash_receiver: timeout reached after " << seq << " request(s)\n";
  return 0;
}
