import { Fragment, memo, useMemo, useState, type ReactNode } from "react";

import { parseBlocks, type Block, type ListItem } from "./blocks";
import { parseInline, type InlineNode } from "./inline";

/** Renders model text as React elements; nothing here goes through innerHTML. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => parseBlocks(text), [text]);
  return <div className="md">{blocks.map((block, index) => renderBlock(block, index))}</div>;
});

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.type) {
    case "paragraph":
      return (
        <p key={key}>
          {block.lines.map((line, index) => (
            <Fragment key={index}>
              {index > 0 && <br />}
              <Inline source={line} />
            </Fragment>
          ))}
        </p>
      );
    case "code":
      return <CodeBlock key={key} lang={block.lang} text={block.text} />;
    case "heading": {
      // Headings inside an answer stay small: they structure a reply, not a page.
      const Tag = block.level <= 2 ? "h3" : "h4";
      return (
        <Tag key={key} className="md__heading">
          <Inline source={block.text} />
        </Tag>
      );
    }
    case "list":
      return renderList(block.ordered, block.start, block.items, key);
    case "quote":
      return (
        <blockquote key={key}>
          {block.lines.map((line, index) => (
            <Fragment key={index}>
              {index > 0 && <br />}
              <Inline source={line} />
            </Fragment>
          ))}
        </blockquote>
      );
    case "rule":
      return <hr key={key} />;
    case "table":
      return (
        <div key={key} className="md__table-wrap">
          <table>
            <thead>
              <tr>
                {block.header.map((cell, index) => (
                  <th key={index}>
                    <Inline source={cell} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((cell, index) => (
                    <td key={index}>
                      <Inline source={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

function renderList(ordered: boolean, start: number, items: ListItem[], key: number): ReactNode {
  const children = items.map((item, index) => (
    <li key={index} style={item.depth > 0 ? { marginLeft: `${item.depth * 1.25}em` } : undefined}>
      <Inline source={item.text} />
    </li>
  ));
  return ordered ? (
    <ol key={key} start={start}>
      {children}
    </ol>
  ) : (
    <ul key={key}>{children}</ul>
  );
}

function Inline({ source }: { source: string }) {
  return <>{renderInline(parseInline(source))}</>;
}

function renderInline(nodes: InlineNode[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.type) {
      case "text":
        return <Fragment key={index}>{node.text}</Fragment>;
      case "code":
        return (
          <code key={index} className="md__code">
            {node.text}
          </code>
        );
      case "strong":
        return <strong key={index}>{renderInline(node.children)}</strong>;
      case "em":
        return <em key={index}>{renderInline(node.children)}</em>;
      case "link":
        // Not an <a>: following it would navigate the app's own webview away.
        return (
          <span key={index} className="md__link" title={node.href}>
            {renderInline(node.children)}
          </span>
        );
    }
  });
}

function CodeBlock({ lang, text }: { lang: string; text: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    navigator.clipboard?.writeText(text).then(
      () => {
        setCopied(true);
        window.setTimeout(() => setCopied(false), 1500);
      },
      () => {},
    );
  };
  return (
    <div className="md__pre">
      <div className="md__pre-bar">
        <span className="md__pre-lang">{lang || "text"}</span>
        <button type="button" className="md__copy" onClick={copy}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <pre>
        <code>{text}</code>
      </pre>
    </div>
  );
}
