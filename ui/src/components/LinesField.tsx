/** A settings form's many-line field: one item per line (arguments, `NAME=value`s),
 *  growing with its lines up to six. */
export function LinesField({
  label,
  hint,
  value,
  onChange,
  placeholder,
  testId,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string | undefined;
  testId: string;
}) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <textarea
        className="input input--mono mcp-form__args"
        value={value}
        rows={Math.min(6, Math.max(2, value.split("\n").length))}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        data-testid={testId}
      />
      <span className="field__hint">{hint}</span>
    </label>
  );
}
