"""Output: text, JSON and JUnit for audits; HTML reports and charts."""
