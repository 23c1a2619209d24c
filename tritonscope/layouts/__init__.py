"""TTGIR layouts: parse attribute text (attrs), Triton's linear-layout maths (linear), derived facts (views)."""
