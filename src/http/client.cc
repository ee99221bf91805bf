#include "http/client.h"

#include <boost/beast/http/write.hpp>

#include "http/beast.h"

namespace orrery::http {
namespace {

struct Url {
  bool tls = false;
  std::string host;
  std::string port;
  std::string target;
};

Result<Url> ParseUrl(const std::string& text) {
  Url url;
  std::string rest;
  if (text.rfind("https://", 0) == 0) {
    url.tls = true;
    rest = text.substr(8);
  } else if (text.rfind("http://", 0) == 0) {
    rest = text.substr(7);
  } else {
    return Status::BadRequest("the URL '" + text + "' must start with http:// or https://");
  }
  const size_t slash = rest.find('/');
  const std::string authority = rest.substr(0, slash);
  url.target = slash == std::string::npos ? "/" : rest.substr(slash);
  const size_t colon = authority.rfind(':');
  url.host = authority.substr(0, colon);
  url.port = colon == std::string::npos ? (url.tls ? "443" : "80") : authority.substr(colon + 1);
  if (url.host.empty() || url.port.empty()) {
    return Status::BadRequest("the URL '" + text + "' has no host or port");
  }
  return url;
}

template <typename Stream>
Result<Response> Exchange(Stream& stream, const Url& url, const Request& request) {
  bhttp::request<bhttp::string_body> out;
  out.method_string(request.method);
  out.target(url.target);
  out.version(11);
  out.set(bhttp::field::host, url.host + ":" + url.port);
  for (const Header& h : request.headers) out.set(h.name, h.value);
  out.body() = request.body;
  out.prepare_payload();
  error_code ec;
  bhttp::write(stream, out, ec);
  if (ec) return Status::IoError("sending the request: " + ec.message());
  beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> in;
  bhttp::read(stream, buffer, in, ec);
  if (ec) return Status::IoError("reading the response: " + ec.message());
  Response response;
  response.status = static_cast<int>(in.result_int());
  for (const auto& field : in) {
    response.headers.push_back({std::string(field.name_string()), std::string(field.value())});
  }
  response.body = std::move(in.body());
  return response;
}

}  // namespace

Result<Response> Fetch(const ClientRequest& request) {
  ORRERY_ASSIGN_OR_RETURN(Url url, ParseUrl(request.url));
  asio::io_context io;
  tcp::resolver resolver(io);
  error_code ec;
  const auto endpoints = resolver.resolve(url.host, url.port, ec);
  if (ec) return Status::IoError("cannot resolve " + url.host + ": " + ec.message());
  beast::tcp_stream tcp_stream(io);
  tcp_stream.expires_after(request.timeout);
  tcp_stream.connect(endpoints, ec);
  if (ec)
    return Status::IoError("cannot connect to " + url.host + ":" + url.port + ": " + ec.message());
  if (!url.tls) return Exchange(tcp_stream, url, request.request);
  ssl::context context(ssl::context::tls_client);
  context.set_verify_mode(ssl::verify_none);
  beast::ssl_stream<beast::tcp_stream> tls_stream(std::move(tcp_stream), context);
  tls_stream.handshake(ssl::stream_base::client, ec);
  if (ec) return Status::IoError("TLS handshake with " + url.host + " failed: " + ec.message());
  return Exchange(tls_stream, url, request.request);
}

}  // namespace orrery::http
