"""memfold for agents: the tool definitions, their handlers and results, vendor tool calls,
MCP resources and prompts, the MCP server, and the checks of a call's arguments."""
