rule {}
rule {}
rule {}
rule {}
