"""Kept so `from memfold.agent_tools import dispatch, render` (the README of 0.1.0) goes on
working: the agent tools live in `memfold.agents.tools`."""

from memfold.agents.tools import *  # noqa: F403 - the same names, under the old module name
