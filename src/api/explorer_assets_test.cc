#include "api/explorer_assets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace orrery::api {
namespace {

class ExplorerAssetsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("orrery-explorer-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_ / "sub");
    Write("index.html", "<!doctype html><p>page</p>");
    Write("app.js", "console.log(1);");
    Write("sub/hidden.js", "secret");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  static http::Request Get(std::string target, std::string method = "GET") {
    http::Request request;
    request.method = std::move(method);
    request.target = std::move(target);
    return request;
  }
  static std::string HeaderOf(const http::Response& response, std::string_view name) {
    for (const http::Header& h : response.headers) {
      if (h.name == name) return h.value;
    }
    return "";
  }

  std::filesystem::path dir_;
};

TEST_F(ExplorerAssetsTest, ServesTheIndexForTheDirectoryAndFilesByName) {
  const ExplorerAssets assets = ExplorerAssets::Load(dir_.string());
  for (const char* target :
       {"/_explorer", "/_explorer/", "/_explorer/?x=1", "/_explorer/index.html"}) {
    const http::Response page = assets.Respond(Get(target));
    EXPECT_EQ(page.status, 200) << target;
    EXPECT_EQ(page.body, "<!doctype html><p>page</p>") << target;
    EXPECT_EQ(HeaderOf(page, "content-type"), "text/html; charset=utf-8") << target;
  }
  const http::Response script = assets.Respond(Get("/_explorer/app.js"));
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.body, "console.log(1);");
  EXPECT_EQ(HeaderOf(script, "content-type"), "text/javascript; charset=utf-8");
}

TEST_F(ExplorerAssetsTest, ServesNothingOutsideTheDirectoryItself) {
  const ExplorerAssets assets = ExplorerAssets::Load(dir_.string());
  for (const char* target : {"/_explorer/sub/hidden.js", "/_explorer/../app.js",
                             "/_explorer/missing.js", "/_explorer/sub"}) {
    EXPECT_EQ(assets.Respond(Get(target)).status, 404) << target;
  }
}

TEST_F(ExplorerAssetsTest, OnlyGetAndHead) {
  const ExplorerAssets assets = ExplorerAssets::Load(dir_.string());
  EXPECT_EQ(assets.Respond(Get("/_explorer/", "HEAD")).status, 200);
  const http::Response post = assets.Respond(Get("/_explorer/", "POST"));
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(HeaderOf(post, "Allow"), "GET, HEAD");
}

TEST_F(ExplorerAssetsTest, AMissingDirectorySaysHowToBuildThePage) {
  const ExplorerAssets assets = ExplorerAssets::Load((dir_ / "absent").string());
  EXPECT_TRUE(assets.empty());
  const http::Response page = assets.Respond(Get("/_explorer/"));
  EXPECT_EQ(page.status, 404);
  EXPECT_NE(page.body.find("make explorer"), std::string::npos) << page.body;
}

TEST(ExplorerAssetsPathTest, ServesOnlyPathsUnderTheExplorer) {
  EXPECT_TRUE(ExplorerAssets::Serves("/_explorer"));
  EXPECT_TRUE(ExplorerAssets::Serves("/_explorer/"));
  EXPECT_TRUE(ExplorerAssets::Serves("/_explorer/app.js?v=2"));
  EXPECT_FALSE(ExplorerAssets::Serves("/_explorerx"));
  EXPECT_FALSE(ExplorerAssets::Serves("/dbs/_explorer/"));
  EXPECT_FALSE(ExplorerAssets::Serves("/"));
}

}  // namespace
}  // namespace orrery::api
