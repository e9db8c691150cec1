locals { from_dot_override = "primary file" }
