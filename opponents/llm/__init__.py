"""The language-model player: endpoint settings, HTTP client, prompts, parsing, the agent."""
