settings {}
