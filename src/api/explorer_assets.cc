#include "api/explorer_assets.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/headers.h"

namespace orrery::api {
namespace {

constexpr std::string_view kPrefix = "/_explorer";

struct ContentType {
  std::string_view extension;
  std::string_view type;
};
constexpr std::array<ContentType, 7> kContentTypes = {{
    {".html", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".json", "application/json"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".map", "application/json"},
}};

std::string ContentTypeOf(const std::string& name) {
  for (const ContentType& c : kContentTypes) {
    if (name.size() >= c.extension.size() &&
        name.compare(name.size() - c.extension.size(), c.extension.size(), c.extension) == 0) {
      return std::string(c.type);
    }
  }
  return "application/octet-stream";
}

http::Response TextResponse(int status, std::string body) {
  http::Response response;
  response.status = status;
  response.headers.push_back({headers::kContentType, "text/plain; charset=utf-8"});
  response.body = std::move(body);
  return response;
}

}  // namespace

ExplorerAssets ExplorerAssets::Load(const std::string& directory) {
  ExplorerAssets assets;
  assets.directory_ = directory;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    if (!entry.is_regular_file(ec)) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    if (!in) continue;
    const std::string name = entry.path().filename().string();
    assets.files_[name] = File{ContentTypeOf(name), std::move(body).str()};
  }
  return assets;
}

bool ExplorerAssets::Serves(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  return path == kPrefix || path.substr(0, kPrefix.size() + 1) == "/_explorer/";
}

http::Response ExplorerAssets::Respond(const http::Request& request) const {
  if (request.method != "GET" && request.method != "HEAD") {
    http::Response response = TextResponse(405, "The Data Explorer's files are read with GET.\n");
    response.headers.push_back({"Allow", "GET, HEAD"});
    return response;
  }
  std::string_view path = std::string_view(request.target).substr(0, request.target.find('?'));
  std::string_view name = path.size() > kPrefix.size() + 1 ? path.substr(kPrefix.size() + 1) : "";
  if (name.empty()) name = "index.html";
  // Only the files of the one directory, by their plain names: no '/', so no '..'.
  auto file = name.find('/') == std::string_view::npos ? files_.find(name) : files_.end();
  if (file == files_.end()) {
    if (files_.empty()) {
      return TextResponse(404, "The Data Explorer was not built: its files are not in " +
                                   directory_ +
                                   " (run `make explorer`, or start the server "
                                   "with --explorer-dir).\n");
    }
    return TextResponse(404, "The Data Explorer has no file '" + std::string(name) + "'.\n");
  }
  http::Response response;
  response.headers.push_back({headers::kContentType, file->second.content_type});
  // The page is rebuilt with the server; it is small enough to be fetched afresh.
  response.headers.push_back({"Cache-Control", "no-cache"});
  // The page holds the key the user typed: no other site may frame it.
  response.headers.push_back({"X-Frame-Options", "DENY"});
  response.headers.push_back({"X-Content-Type-Options", "nosniff"});
  response.body = file->second.body;
  return response;
}

}  // namespace orrery::api
