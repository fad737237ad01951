"""Versions of an implementation under test, side by side: the version matrix of the register's
findings (``matrix``), a campaign whose cases run on adjacent versions (``across``) and the
search for the version where an answer changed (``bisect``)."""
