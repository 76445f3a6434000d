// The official MCP TypeScript SDK client, driven by tests/test_mcp_clients.py.
//
// Reads a plan (JSON) from the file named by argv[2]: either {"command", "args", "env"} to
// start `memfold mcp` over stdio or {"url", "token"} for streamable HTTP, and "calls":
// [{"label", "name", "arguments"}].  Lists the tools (the SDK then checks every result
// against its tool's outputSchema), runs each call and prints one JSON line per call:
// {"label", "isError", "text", "structuredContent"} for a result, {"label", "exception"}
// when the client threw instead of answering.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const transport = plan.url
  ? new StreamableHTTPClientTransport(new URL(plan.url), {
      requestInit: { headers: plan.token ? { Authorization: `Bearer ${plan.token}` } : {} },
    })
  : new StdioClientTransport({ command: plan.command, args: plan.args, env: plan.env, stderr: "inherit" });
const client = new Client({ name: "memfold-ts-test", version: "1.0.0" });
await client.connect(transport);
const listed = await client.listTools();
console.log(JSON.stringify({ label: "tools/list", tools: listed.tools.map((t) => t.name) }));
for (const { label, name, arguments: args } of plan.calls) {
  try {
    const result = await client.callTool({ name, arguments: args });
    const text = result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
    console.log(JSON.stringify({ label, isError: Boolean(result.isError), text,
                                 structuredContent: result.structuredContent ?? null }));
  } catch (error) {
    console.log(JSON.stringify({ label, exception: String(error && error.message || error) }));
  }
}
await client.close();
