"""What is read from a decision's own text: its court's canonical name, its headings, its overview."""
