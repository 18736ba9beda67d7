// plugin loader (issue 3)
