replicas_hint = 2
