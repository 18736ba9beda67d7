// builtin strategies are registered here (issue 3)
