CREATE DATABASE shop;
USE shop;
CREATE TABLE customers (
  id INT AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  email VARCHAR(255) UNIQUE,
  created_at DATETIME DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE orders (
  id INT AUTO_INCREMENT PRIMARY KEY,
  customer_id INT NOT NULL,
  amount DECIMAL(10,2) NOT NULL,
  placed_at DATETIME NOT NULL,
  KEY idx_customer (customer_id)
);
INSERT INTO customers (name, email, created_at) VALUES ('Alice', 'alice@example.com', '2026-01-05 10:00:00'), ('bob', 'Bob@Example.com', '2026-01-06 11:30:00'), ('Carol', 'carol@example.com', '2026-02-01 09:15:00');
INSERT INTO orders (customer_id, amount, placed_at) VALUES (1, 19.99, '2026-01-07 12:00:00'), (1, 5.00, '2026-01-20 08:00:00'), (2, 42.50, '2026-02-02 18:45:00'), (3, 7.25, '2026-02-03 07:10:00');
SELECT * FROM customers WHERE name = 'ALICE';
SELECT id FROM customers WHERE email = 'bob@example.com';
SELECT c.name, COUNT(o.id) AS n, SUM(o.amount) AS total FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY total DESC;
SELECT name, amount, RANK() OVER (ORDER BY amount DESC) AS r, SUM(amount) OVER (PARTITION BY customer_id ORDER BY placed_at) AS running FROM orders JOIN customers ON customers.id = orders.customer_id;
INSERT INTO customers (id, name, email) VALUES (1, 'Alice B', 'alice@example.com') ON DUPLICATE KEY UPDATE name = VALUES(name);
SELECT id, name FROM customers ORDER BY id;
SELECT DATE_FORMAT(placed_at, '%Y-%m') AS month, SUM(amount) FROM orders GROUP BY month;
UPDATE orders SET amount = amount * 1.1 WHERE placed_at < '2026-02-01';
DELETE FROM orders WHERE amount < 6;
SELECT COUNT(*), ROUND(SUM(amount), 2) FROM orders;
SHOW TABLES;
DESCRIBE customers;
SHOW DATABASES;
