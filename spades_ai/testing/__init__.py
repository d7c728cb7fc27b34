"""Conformance checks for users' own work: ``check_agent(agent)`` plays an agent at every seat
and checks each decision (``testing.agent``); ``check_table(rules, agent)`` walks every public
door of the toolkit at one table (``testing.table``, docs/rules.md "What plays where")."""

from spades_ai.testing.agent import AgentCheckError, check_agent
from spades_ai.testing.table import CHECKED_TABLES, DOOR_NAMES, TableCheckError, TableReport, check_table

__all__ = ["AgentCheckError", "CHECKED_TABLES", "DOOR_NAMES", "TableCheckError", "TableReport", "check_agent", "check_table"]
