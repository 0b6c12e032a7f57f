"""The migration workflow: a LangGraph graph of steps, each with its agent and tools."""
