a = "́%{ endif }"
b = "x" ́
