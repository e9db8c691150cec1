rule {}
