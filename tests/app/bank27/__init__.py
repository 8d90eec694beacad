"""A bank card service line the policy tests write into a temporary folder (issue 27)."""
