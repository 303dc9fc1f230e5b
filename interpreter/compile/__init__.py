"""The compiler: rules text (the dsl AST) to a Program and a Game. It may import runtime/, never play/."""
