// The pure parts of the text-on-screen service (src/service/visual_text.cpp): a region as the
// flags and bodies give it, and snapshot --with-text's placing of read lines on nodes.
#include "clawperator/service/visual_text.hpp"

#include <catch2/catch.hpp>

namespace service = clawperator::service;
namespace ocr = clawperator::ocr;
using clawperator::Json;

TEST_CASE("a region is [left,top][right,bottom] around some pixels", "[service][visual_text]") {
  const auto region = service::parse_region("[0,120][1080,600]");
  REQUIRE(region);
  CHECK(*region == ocr::Box{0, 120, 1080, 600});
  for (const char* bad :
       {"", "0,0,10,10", "[0,0][10,10] ", "[0,0][10,10]x", "[10,0][10,5]", "[0,9][5,9]",
        "[0,0][99999999999999999999,1]", "[+1,0][5,5]", "[0,0][5]", "[a,0][5,5]"}) {
    CAPTURE(bad);
    CHECK_FALSE(service::parse_region(bad));
  }
  // Negative edges parse (a node's bounds may lie off screen); the request check refuses them
  // as a region.
  CHECK(service::parse_region("[-5,0][5,5]"));
  service::VisualTextRequest request;
  request.phrase = "Pay";
  request.region = service::parse_region("[-5,0][5,5]");
  REQUIRE(service::check_visual_text_request(request));
  CHECK(service::check_visual_text_request(request)->text().find("region") != std::string::npos);
}

TEST_CASE("snapshot --with-text gives a line to the smallest wordless node under its centre",
          "[service][visual_text]") {
  Json compact = {
      {"nodes", Json::array({
                    {{"ref", "n1"}, {"bounds", "[0,0][1080,2400]"}},
                    {{"ref", "n2"}, {"bounds", "[0,100][1080,300]"}},
                    {{"ref", "n3"}, {"bounds", "[0,400][1080,600]"}, {"text", "Basket"}},
                    {{"ref", "n4"}, {"bounds", "bad"}},
                })}};
  const auto line = [](std::string text, ocr::Box box, double confidence) {
    ocr::Line out;
    out.text = std::move(text);
    out.box = box;
    out.confidence = confidence;
    return out;
  };
  const std::vector<ocr::Line> lines = {
      line("Pay now", {40, 150, 400, 250}, 91.26),  // in n2, the smallest under it
      line("Basket", {40, 450, 400, 550}, 95),      // n3 has words of its own
      line("faint", {40, 1000, 400, 1100}, 20),     // under the floor
      line("Footer", {40, 2000, 400, 2100}, 88),    // only the screen-sized n1 holds it
  };
  service::attach_recognised_text(compact, lines, 50);
  CHECK(compact["recognisedLines"] == 2);
  const Json& nodes = compact["nodes"];
  REQUIRE(nodes[1].contains("recognisedText"));
  CHECK(
      nodes[1]["recognisedText"] ==
      Json::array({{{"text", "Pay now"}, {"bounds", "[40,150][400,250]"}, {"confidence", 91.3}}}));
  CHECK(nodes[0]["recognisedText"].size() == 1);
  CHECK(nodes[0]["recognisedText"][0]["text"] == "Footer");
  CHECK_FALSE(nodes[2].contains("recognisedText"));
  CHECK_FALSE(nodes[3].contains("recognisedText"));
}
