// Micro-benchmarks of the hot pure paths: the result path (chunk transport, envelope parsing,
// the whole result stream, printing), the machine's limit for it (SHA-256 and base64 alone),
// and payload validation.
//
// Memory: the large results are dominated by how glibc hands out big blocks. By default its
// dynamic mmap threshold makes a block warm (reused) or cold (fresh pages from the kernel, each
// first touch a page fault) depending on what ran before, so numbers swung 10x between runs.
// main() pins it: warm (big blocks stay in the heap and are reused, as in a long-running
// process) unless CLAWPERATOR_BENCH_COLD=1 (every big block is fresh, as in a one-shot CLI run).
// BM_FirstTouch measures what cold memory costs on this machine.
//
// Result-path inputs come in two kinds of envelope: "plain", one long string without escapes
// (the historical benchmark), and "xml", a UI hierarchy dump as snapshots carry it, where every
// attribute quote is an escape and some text is not ASCII. Sizes are the canonical line's.
#include <benchmark/benchmark.h>
#include <openssl/evp.h>
#include <simdjson.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/json.hpp"
#include "clawperator/transport/base64.hpp"
#include "clawperator/transport/envelope.hpp"
#include "clawperator/transport/result_stream.hpp"
#include "clawperator/transport/sha256.hpp"

namespace {

using clawperator::Json;
namespace transport = clawperator::transport;

enum class Content : std::int64_t { Plain = 0, Xml = 1 };

std::string snapshot_text(std::size_t bytes, Content content) {
  std::string text;
  text.reserve(bytes + 512);
  if (content == Content::Plain) {
    text.assign(bytes, 'x');
    for (std::size_t i = 0; i < text.size(); i += 97) text[i] = static_cast<char>('a' + i % 26);
    return text;
  }
  text = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">\n";
  for (std::size_t i = 0; text.size() < bytes; ++i) {
    text += "<node index=\"" + std::to_string(i % 17) + "\" text=\"" +
            (i % 5 == 0 ? "Wi‑Fi · Réseau 漢字" : "Network & internet") +
            "\" resource-id=\"android:id/title\" class=\"android.widget.TextView\" "
            "package=\"com.android.settings\" content-desc=\"\" checkable=\"false\" "
            "checked=\"false\" clickable=\"false\" enabled=\"true\" focusable=\"false\" "
            "focused=\"false\" scrollable=\"false\" long-clickable=\"false\" password=\"false\" "
            "selected=\"false\" bounds=\"[210," +
            std::to_string(1000 + i % 900) + "][460,1090]\" />\n";
  }
  text.resize(bytes);  // may cut a character: the envelope's own JSON stays valid either way
  while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0x80) != 0) text.pop_back();
  return text;
}

// The envelope JSON whose canonical line is about `line_bytes` long.
std::string envelope_json(std::size_t line_bytes, Content content) {
  const auto build = [content](std::size_t text_bytes) {
    const Json envelope = {
        {"commandId", "c1"},
        {"taskId", "t1"},
        {"status", "success"},
        {"stepResults",
         Json::array({Json{{"id", "s"},
                           {"actionType", "snapshot"},
                           {"success", true},
                           {"data", Json{{"text", snapshot_text(text_bytes, content)}}}}})},
        {"error", nullptr}};
    return envelope.dump();
  };
  // The JSON grows linearly with the text (escapes included): two probes give the line.
  const std::size_t small = std::size_t{1} << 20;
  const auto small_size = static_cast<double>(build(small).size());
  const auto large_size = static_cast<double>(build(2 * small).size());
  const double growth = (large_size - small_size) / static_cast<double>(small);
  const double fixed = small_size - growth * static_cast<double>(small) +
                       static_cast<double>(transport::kResultPrefix.size());
  const auto text_bytes =
      static_cast<std::size_t>(std::max(0.0, (static_cast<double>(line_bytes) - fixed) / growth));
  return build(text_bytes);
}

// The canonical line chunked as the Operator does, framed as `logcat -v time` lines.
std::string chunked_stream(const std::string& line) {
  const std::string digest = transport::sha256_hex(line);
  const std::size_t count = (line.size() + 1023) / 1024;
  std::string stream;
  stream.reserve(line.size() * 2);
  for (std::size_t index = 0; index < count; ++index) {
    Json record = {
        {"commandId", "c1"},
        {"taskId", "t1"},
        {"index", index},
        {"count", count},
        {"byteLength", line.size()},
        {"sha256", digest},
        {"data", transport::encode_base64(std::string_view(line).substr(index * 1024, 1024))}};
    stream += "11-30 12:00:00.000 I/Clawperator( 4242): [Clawperator-Result-Chunk] ";
    stream += record.dump();
    stream += '\n';
  }
  return stream;
}

// Inputs are large and built slowly: once per (size, content).
const std::string& cached_envelope(std::size_t bytes, Content content) {
  static std::map<std::pair<std::size_t, Content>, std::string> cache;
  auto [it, inserted] = cache.try_emplace({bytes, content});
  if (inserted) it->second = envelope_json(bytes, content);
  return it->second;
}

const std::string& cached_stream(std::size_t bytes, Content content, bool with_prefix) {
  static std::map<std::tuple<std::size_t, Content, bool>, std::string> cache;
  auto [it, inserted] = cache.try_emplace({bytes, content, with_prefix});
  if (inserted) {
    // Without the space after the prefix the line fails just after its checksum is verified,
    // before the envelope is parsed: the transport alone.
    const std::string prefix =
        with_prefix ? std::string(transport::kResultPrefix) : "[Clawperator-Result]";
    it->second = chunked_stream(prefix + cached_envelope(bytes, content));
  }
  return it->second;
}

Content content_of(const benchmark::State& state) {
  return static_cast<Content>(state.range(1));
}

void decode_stream(benchmark::State& state, const std::string& stream, bool expect_complete) {
  transport::ResultStreamDecoder decoder("c1", "t1");
  decoder.begin_capture();
  // Pipe-sized reads, as the reader loop does.
  for (std::size_t offset = 0; offset < stream.size(); offset += 65536) {
    decoder.feed(std::string_view(stream).substr(offset, 65536));
  }
  const bool complete = std::holds_alternative<transport::CompleteResult>(decoder.status());
  if (complete != expect_complete) state.SkipWithError("unexpected outcome");
  benchmark::DoNotOptimize(decoder.status());
}

void set_bytes(benchmark::State& state, std::size_t bytes) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(bytes));
}

void result_sizes(benchmark::internal::Benchmark* bench) {
  for (std::int64_t content : {0, 1}) {
    for (std::int64_t bytes : {std::int64_t{16} << 20, (std::int64_t{64} << 20) - 4096}) {
      bench->Args({bytes, content});
    }
  }
  bench->ArgNames({"bytes", "xml"})->Unit(benchmark::kMillisecond);
}

// Chunk transport alone: logcat stream -> records -> verified canonical line.
void BM_ChunkTransport(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const std::string& stream = cached_stream(bytes, content_of(state), false);
  for (auto _ : state) decode_stream(state, stream, false);
  set_bytes(state, bytes);
}
BENCHMARK(BM_ChunkTransport)->Apply(result_sizes);

// The envelope JSON -> Envelope (what follows the transport).
void BM_EnvelopeParse(benchmark::State& state) {
  const std::string& json =
      cached_envelope(static_cast<std::size_t>(state.range(0)), content_of(state));
  for (auto _ : state) {
    auto envelope = transport::parse_envelope(json);
    if (!envelope) state.SkipWithError("malformed");
    benchmark::DoNotOptimize(envelope);
  }
  set_bytes(state, json.size());
}
BENCHMARK(BM_EnvelopeParse)->Apply(result_sizes);

// The same through nlohmann's parser, for comparison.
void BM_EnvelopeParseNlohmann(benchmark::State& state) {
  const std::string& json =
      cached_envelope(static_cast<std::size_t>(state.range(0)), content_of(state));
  for (auto _ : state) {
    const Json document = Json::parse(json, nullptr, false);
    auto envelope = transport::envelope_from_json(document);
    if (!envelope) state.SkipWithError("malformed");
    benchmark::DoNotOptimize(envelope);
  }
  set_bytes(state, json.size());
}
BENCHMARK(BM_EnvelopeParseNlohmann)
    ->Args({16 << 20, 0})
    ->Args({16 << 20, 1})
    ->ArgNames({"bytes", "xml"})
    ->Unit(benchmark::kMillisecond);

// The least a simdjson-based envelope parse would do: parse on demand, walk to every step's
// data.text and unescape it (simdjson's string_view into its own buffer, no copy into an
// Envelope). If this lower bound is slower than BM_EnvelopeParse, which builds the whole
// Envelope, the hand-written reader stays (issue 14's rule: "if it measures at least as fast").
void BM_EnvelopeParseSimdjson(benchmark::State& state) {
  const std::string& json =
      cached_envelope(static_cast<std::size_t>(state.range(0)), content_of(state));
  const simdjson::padded_string padded(json);
  simdjson::ondemand::parser parser(padded.size());
  for (auto _ : state) {
    simdjson::ondemand::document document = parser.iterate(padded);
    std::size_t text_bytes = 0;
    simdjson::ondemand::array steps;
    if (document["stepResults"].get_array().get(steps) != simdjson::SUCCESS) {
      state.SkipWithError("malformed");
      break;
    }
    for (auto step : steps) {
      std::string_view text;
      if (step["data"]["text"].get_string().get(text) != simdjson::SUCCESS) {
        state.SkipWithError("malformed");
        break;
      }
      text_bytes += text.size();
    }
    benchmark::DoNotOptimize(text_bytes);
  }
  set_bytes(state, json.size());
}
BENCHMARK(BM_EnvelopeParseSimdjson)->Apply(result_sizes);

// Everything: logcat stream -> Envelope and canonical line.
void BM_ChunkedResult(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const std::string& stream = cached_stream(bytes, content_of(state), true);
  for (auto _ : state) decode_stream(state, stream, true);
  set_bytes(state, bytes);
}
BENCHMARK(BM_ChunkedResult)->Apply(result_sizes);
BENCHMARK(BM_ChunkedResult)
    ->Args({1 << 10, 0})
    ->Args({64 << 10, 0})
    ->ArgNames({"bytes", "xml"})
    ->Unit(benchmark::kMillisecond);

// Printing the result: the envelope back to JSON text, compact and pretty.
void BM_DumpJson(benchmark::State& state) {
  const std::string& json = cached_envelope(16 << 20, content_of(state));
  const Json document = transport::to_json(transport::parse_envelope(json).value());
  const bool pretty = state.range(0) != 0;
  std::size_t size = 0;
  for (auto _ : state) {
    std::string text = clawperator::dump_json(document, pretty);
    size = text.size();
    benchmark::DoNotOptimize(text);
  }
  set_bytes(state, size);
}
BENCHMARK(BM_DumpJson)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"pretty", "xml"})
    ->Unit(benchmark::kMillisecond);

void BM_DumpJsonNlohmann(benchmark::State& state) {
  const std::string& json = cached_envelope(16 << 20, content_of(state));
  const Json document = transport::to_json(transport::parse_envelope(json).value());
  std::size_t size = 0;
  for (auto _ : state) {
    std::string text = document.dump(-1, ' ', false, Json::error_handler_t::replace);
    size = text.size();
    benchmark::DoNotOptimize(text);
  }
  set_bytes(state, size);
}
BENCHMARK(BM_DumpJsonNlohmann)
    ->Args({0, 0})
    ->Args({0, 1})
    ->ArgNames({"pretty", "xml"})
    ->Unit(benchmark::kMillisecond);

// The machine's limit for the transport: base64-decode each 1024-byte slice into the line and
// hash it, as the reassembler must, with nothing else.
void BM_Sha256AndBase64(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  std::string data(bytes, 'q');
  for (std::size_t i = 0; i < data.size(); i += 7) data[i] = static_cast<char>(i * 131);
  std::vector<std::string> slices;
  for (std::size_t offset = 0; offset < data.size(); offset += 1024) {
    slices.push_back(transport::encode_base64(std::string_view(data).substr(offset, 1024)));
  }
  for (auto _ : state) {
    std::string line;
    line.reserve(bytes);
    transport::Sha256 hasher;
    for (const std::string& slice : slices) {
      const std::size_t before = line.size();
      if (!transport::append_base64_decoded(slice, line)) state.SkipWithError("base64");
      hasher.update(std::string_view(line).substr(before));
    }
    benchmark::DoNotOptimize(hasher.finish_hex());
  }
  set_bytes(state, bytes);
}
BENCHMARK(BM_Sha256AndBase64)
    ->Arg(16 << 20)
    ->Arg((64 << 20) - 4096)
    ->ArgName("bytes")
    ->Unit(benchmark::kMillisecond);

// Each half of the limit on its own.
void BM_Sha256(benchmark::State& state) {
  const std::string data(16 << 20, 'q');
  for (auto _ : state) benchmark::DoNotOptimize(transport::sha256_hex(data));
  set_bytes(state, data.size());
}
BENCHMARK(BM_Sha256)->Unit(benchmark::kMillisecond);

void BM_Base64Decode(benchmark::State& state) {
  std::string data(16 << 20, 'q');
  for (std::size_t i = 0; i < data.size(); i += 7) data[i] = static_cast<char>(i * 131);
  const std::string encoded = transport::encode_base64(data);
  std::string out;
  out.reserve(data.size());
  for (auto _ : state) {
    out.clear();
    if (!transport::append_base64_decoded(encoded, out)) state.SkipWithError("base64");
    benchmark::DoNotOptimize(out);
  }
  set_bytes(state, data.size());
}
BENCHMARK(BM_Base64Decode)->Unit(benchmark::kMillisecond);

// The same through OpenSSL's EVP_DecodeBlock (libcrypto, already linked for SHA-256): the Debian
// library that would replace transport/base64.cpp. It does not reject non-canonical text (the
// rule of include/clawperator/transport/base64.hpp), so this is its speed without that check.
void BM_Base64DecodeOpenssl(benchmark::State& state) {
  std::string data(16 << 20, 'q');
  for (std::size_t i = 0; i < data.size(); i += 7) data[i] = static_cast<char>(i * 131);
  const std::string encoded = transport::encode_base64(data);
  std::string out(encoded.size() / 4 * 3, '\0');
  for (auto _ : state) {
    const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                        reinterpret_cast<const unsigned char*>(encoded.data()),
                                        static_cast<int>(encoded.size()));
    if (written < 0) state.SkipWithError("base64");
    benchmark::DoNotOptimize(out);
  }
  set_bytes(state, data.size());
}
BENCHMARK(BM_Base64DecodeOpenssl)->Unit(benchmark::kMillisecond);

// Writing a freshly allocated 64 MiB block: what each cold buffer of a 64 MiB result costs.
void BM_FirstTouch(benchmark::State& state) {
  for (auto _ : state) {
    std::string block(std::size_t{64} << 20, 'x');
    benchmark::DoNotOptimize(block.data());
  }
  set_bytes(state, std::size_t{64} << 20);
}
BENCHMARK(BM_FirstTouch)->Unit(benchmark::kMillisecond);

void BM_UnrelatedLogTraffic(benchmark::State& state) {
  std::string stream;
  for (int i = 0; i < 10000; ++i) {
    stream += "11-30 12:00:00.000 D/SomeApp( 1234): an unrelated log line number " +
              std::to_string(i) + " with some text\n";
  }
  for (auto _ : state) {
    transport::ResultStreamDecoder decoder("c1", "t1");
    decoder.begin_capture();
    decoder.feed(stream);
    benchmark::DoNotOptimize(decoder.status());
  }
  set_bytes(state, stream.size());
}
BENCHMARK(BM_UnrelatedLogTraffic);

void BM_ValidatePayload(benchmark::State& state) {
  const Json payload = Json::parse(R"({"commandId":"c1","taskId":"t1","source":"bench",
    "expectedFormat":"android-ui-automator","timeoutMs":30000,"actions":[
    {"id":"a","type":"open_app","params":{"applicationId":"com.android.settings"}},
    {"id":"b","type":"wait_for_node","params":{"matcher":{"textEquals":"Network"}}},
    {"id":"c","type":"click","params":{"matcher":{"textEquals":"Network"}}},
    {"id":"d","type":"enter_text","params":{"matcher":{"resourceId":"x"},"text":"hello"}},
    {"id":"e","type":"snapshot"}]})");
  for (auto _ : state) benchmark::DoNotOptimize(clawperator::contract::validate_execution(payload));
}
BENCHMARK(BM_ValidatePayload);

void pin_malloc_behaviour() {
#if defined(__GLIBC__)
  const char* cold = std::getenv("CLAWPERATOR_BENCH_COLD");
  if (cold != nullptr && std::string_view(cold) == "1") {
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);  // glibc's initial value, no longer adjusted
  } else {
    // No mmap at all (the threshold cannot exceed 32 MiB) and no trimming: freed blocks stay.
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  }
#endif
}

}  // namespace

int main(int argc, char** argv) {
  pin_malloc_behaviour();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
