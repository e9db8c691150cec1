rule {}
rule "named" {}
