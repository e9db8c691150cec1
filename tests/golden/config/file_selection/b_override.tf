locals { order = "b_override.tf" }
